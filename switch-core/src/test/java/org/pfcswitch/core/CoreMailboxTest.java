package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * {@link CoreMailbox}'s posted tasks, as a change on several workers uses them: a task withdrawn
 * before its owner took it never runs, one the owner took is waited for, what it threw reaches the
 * caller, and the mailbox is free for the next request either way.
 */
class CoreMailboxTest {

    @Test
    void aWithdrawnTaskNeverRunsAndTheMailboxIsFreeAgain() throws Exception {
        CoreMailbox box = new CoreMailbox();
        AtomicInteger ran = new AtomicInteger();
        CoreMailbox.Posted posted = box.post((core, now) -> ran.incrementAndGet(), 1_000_000);
        assertTrue(posted.withdraw());
        box.runPending(null, 0);
        assertEquals(0, ran.get(), "withdrawn before the owner's pass");

        CoreMailbox.Posted next = box.post((core, now) -> ran.addAndGet(10), 1_000_000);   // not blocked by the first
        box.runPending(null, 0);
        assertFalse(next.withdraw(), "the owner took it");
        next.await(1_000_000_000L, 1_000_000_000L);
        assertEquals(10, ran.get());
    }

    @Test
    void aTaskTheOwnerDoesNotTakeTimesOutWithdrawnAndWhatATaskThrowsReachesTheCaller() throws Exception {
        CoreMailbox box = new CoreMailbox();
        AtomicInteger ran = new AtomicInteger();
        CoreMailbox.Posted posted = box.post((core, now) -> ran.incrementAndGet(), 1_000_000);
        TimeoutException late = assertThrows(TimeoutException.class, () -> posted.await(2_000_000, 2_000_000));
        assertTrue(late.getMessage().contains("did not take the request within 2 ms"), late.getMessage());
        box.runPending(null, 0);
        assertEquals(0, ran.get(), "withdrawn at the timeout");

        CoreMailbox.Posted failing = box.post((core, now) -> {
            throw new IllegalArgumentException("refused");
        }, 1_000_000);
        box.runPending(null, 0);
        assertEquals("refused", assertThrows(IllegalArgumentException.class,
                () -> failing.await(1_000_000_000L, 1_000_000_000L)).getMessage());
        Thread owner = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 1_000 && ran.get() == 0; i++) {
                box.runPending(null, 0);
                Thread.onSpinWait();
                java.util.concurrent.locks.LockSupport.parkNanos(100_000);
            }
        });
        box.call((core, now) -> ran.incrementAndGet(), 5_000_000_000L);      // call works after a failure
        owner.join();
        assertEquals(1, ran.get());
    }
}
