package org.pfcswitch.cli.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * Runs independent tasks on {@code jobs} platform threads and returns their results in task
 * order, whatever order they finish in. Each task runs on one thread from start to end, so a
 * deterministic task gives the same result whatever {@code jobs} is. The first task to fail stops
 * the rest and its exception is thrown.
 */
public final class RunPool {

    private RunPool() {}

    /**
     * @param onDone told the number of tasks finished so far after each one finishes (on the finishing thread)
     */
    public static <I, T> List<T> run(List<I> tasks, int jobs, Function<I, T> task, IntConsumer onDone) {
        if (jobs < 1) {
            throw new IllegalArgumentException("--jobs must be at least 1, got " + jobs);
        }
        AtomicInteger done = new AtomicInteger();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, Math.max(1, tasks.size())), r -> {
            Thread t = new Thread(r, "pfcswitch-sim-" + threads.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (I in : tasks) {
                futures.add(pool.submit(() -> {
                    T out = task.apply(in);
                    onDone.accept(done.incrementAndGet());
                    return out;
                }));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    pool.shutdownNow();
                    if (e.getCause() instanceof RuntimeException re) {
                        throw re;
                    }
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the runs", e);
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
