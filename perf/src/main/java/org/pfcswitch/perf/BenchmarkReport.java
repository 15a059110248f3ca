package org.pfcswitch.perf;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs JMH (same arguments as JMH's own main) and prints a table in which every benchmark
 * {@code x} that has a sibling {@code xReference} in the same class, with the same parameters,
 * gets its ratio to that reference: both are measured in the same run, on the same machine.
 */
public final class BenchmarkReport {
    private BenchmarkReport() {}

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        Collection<RunResult> results = new Runner(new CommandLineOptions(args)).run();
        Map<String, RunResult> byKey = new LinkedHashMap<>();
        for (RunResult r : results) {
            byKey.put(key(r, r.getParams().getBenchmark()), r);
        }
        System.out.println();
        System.out.printf("%-58s %10s %9s  %s%n", "benchmark", "score", "error", "ratio to its reference");
        for (RunResult r : results) {
            String name = r.getParams().getBenchmark();
            RunResult ref = byKey.get(key(r, name + "Reference"));
            double score = r.getPrimaryResult().getScore();
            String ratio = ref == null || name.endsWith("Reference") ? ""
                    : String.format("%.2fx", score / ref.getPrimaryResult().getScore());
            System.out.printf("%-58s %10.2f %9.2f  %s %s%n", shortName(name) + params(r), score,
                    r.getPrimaryResult().getScoreError(), r.getPrimaryResult().getScoreUnit(), ratio);
        }
    }

    private static String key(RunResult r, String benchmark) {
        return benchmark + params(r);
    }

    private static String params(RunResult r) {
        StringBuilder sb = new StringBuilder();
        for (String k : r.getParams().getParamsKeys()) {
            sb.append(sb.isEmpty() ? " [" : ", ").append(k).append('=').append(r.getParams().getParam(k));
        }
        return sb.isEmpty() ? "" : sb.append(']').toString();
    }

    private static String shortName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts[parts.length - 2] + "." + parts[parts.length - 1];
    }
}
