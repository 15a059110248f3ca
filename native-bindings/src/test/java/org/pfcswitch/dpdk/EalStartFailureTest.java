package org.pfcswitch.dpdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * EAL refusing to start, in a JVM of its own (Surefire forks per class): a failed
 * {@code rte_eal_init} can leave EAL unable to start again in this process.
 */
class EalStartFailureTest {

    @AfterAll
    static void cleanUp() {
        Eal.cleanup(); // a no-op unless a test started EAL by mistake
    }

    @Test
    void withoutEalDpdkCallsAreRefusedInsteadOfCrashing() {
        assertFalse(Eal.isRunning());
        IllegalStateException e = assertThrows(IllegalStateException.class, EthPort::all);
        assertTrue(e.getMessage().contains("Eal.init"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> EthPort.of(0));
        assertThrows(IllegalStateException.class, Tsc::hz);
        assertThrows(IllegalStateException.class,
                () -> Mempool.create(Arena.global(), "p", 63, 0, 0, 2048, Mempool.ANY_SOCKET));
    }

    @Test
    void anUnknownVdevFailsEalInitWithTheErrnoText() {
        DpdkException e = assertThrows(DpdkException.class, () -> Eal.init(Eal.lcoresOnAllowedCpus(),
                "--no-huge", "-m", "64", "--no-pci", "--no-shconf", "--no-telemetry", "--vdev=net_bogus0"));
        assertEquals("rte_eal_init", e.call());
        assertEquals(-1, e.port());
        assertEquals(19, e.rteErrno()); // ENODEV
        assertEquals("No such device", e.rteErrorText());
        assertTrue(e.getMessage().contains("--vdev=net_bogus0"), e.getMessage());
        assertFalse(Eal.isRunning());
    }
}
