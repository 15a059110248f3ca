package org.pfcswitch.control;

import java.util.ArrayList;
import java.util.List;

import org.pfcswitch.codec.MacControl;
import org.pfcswitch.config.PfcWatchdogLoader;
import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.core.PfcWatchdogConfig;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A {@code pfcwd start} or {@code pfcwd stop} as the control API receives it, checked in full
 * before anything changes (the settings by {@link PfcWatchdogLoader}, the one checker the config
 * files use too):
 *
 * <pre>
 * POST /api/v1/pfcwd/start {"ports": ["h2"] | ["all"], "detection_ms": 400, "restoration_ms": 800,
 *                           "action": "drop" | "forward" | "alert", "priorities": [3]}
 * POST /api/v1/pfcwd/stop  {"ports": ["h2"] | ["all"]}
 * </pre>
 *
 * {@code restoration_ms} defaults to twice the detection time, {@code action} to drop,
 * {@code priorities} to the switch's lossless priorities; no {@code ports} (or {@code "all"}) means
 * every port.
 *
 * @param ports      the ports the change applies to, in port order
 * @param priorities the priorities to watch (a mask; 0 for a stop)
 * @param settings   the settings to start with, or null for a stop
 */
record PfcwdRequest(int[] ports, int priorities, PfcWatchdogConfig settings) {

    private static final List<String> START_KEYS = List.of("ports", "detection_ms", "restoration_ms", "action", "priorities");

    /** Reads a start; {@code losslessMask} is the default set of priorities. */
    static PfcwdRequest start(JsonNode body, List<String> portNames, int losslessMask) {
        allowOnly(body, START_KEYS);
        int[] ports = ports(body, portNames);
        long detection = wholeNumber(body, "detection_ms");
        Long restoration = body.has("restoration_ms") ? wholeNumber(body, "restoration_ms") : null;
        String action = null;
        if (body.has("action")) {
            if (!body.get("action").isTextual()) {
                throw bad("action: expected \"drop\", \"forward\" or \"alert\", got " + body.get("action"));
            }
            action = body.get("action").asText();
        }
        PfcWatchdogConfig settings = PfcWatchdogLoader.runtime(detection, restoration, action,
                (key, message) -> bad((key.equals("action") ? key : key + "_ms") + ": " + message));
        int priorities = body.has("priorities") ? priorities(body.get("priorities")) : losslessMask;
        if (priorities == 0) {
            throw bad("priorities: the switch has no lossless priority to watch; give \"priorities\": [0-7, ...]");
        }
        return new PfcwdRequest(ports, priorities, settings);
    }

    static PfcwdRequest stop(JsonNode body, List<String> portNames) {
        allowOnly(body, List.of("ports"));
        return new PfcwdRequest(ports(body, portNames), 0, null);
    }

    /** The answer: what was started or stopped, and which stormed queues the change restored. */
    String answer(List<String> portNames, int[] restoredByPort) {
        JsonOutput j = new JsonOutput().beginObject().field("change", settings == null ? "stop" : "start").beginArray("ports");
        for (int p : ports) {
            j.value(portNames.get(p));
        }
        j.endArray();
        if (settings != null) {
            j.field("action", settings.action().label()).field("detection_ms", settings.detectionNanos() / 1_000_000)
                    .field("restoration_ms", settings.restorationNanos() / 1_000_000);
            j.beginArray("priorities");
            for (int v = priorities; v != 0; v &= v - 1) {
                j.value(Integer.numberOfTrailingZeros(v));
            }
            j.endArray();
        }
        j.beginArray("restored");
        for (int p = 0; p < restoredByPort.length; p++) {
            for (int v = restoredByPort[p]; v != 0; v &= v - 1) {
                j.beginObject().field("port", portNames.get(p)).field("priority", Integer.numberOfTrailingZeros(v)).endObject();
            }
        }
        return j.endArray().endObject().toString();
    }

    private static void allowOnly(JsonNode body, List<String> keys) {
        for (var it = body.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!keys.contains(k)) {
                throw bad("unknown key '" + k + "' (allowed: " + String.join(", ", keys) + ")");
            }
        }
    }

    private static int[] ports(JsonNode body, List<String> portNames) {
        JsonNode list = body.get("ports");
        if (list == null) {
            return all(portNames);
        }
        if (!list.isArray() || list.isEmpty()) {
            throw bad("ports: expected a list of port names or [\"all\"], got " + list);
        }
        boolean[] chosen = new boolean[portNames.size()];
        for (JsonNode n : list) {
            String name = n.asText();
            if (!n.isTextual()) {
                throw bad("ports: expected port names, got " + n);
            }
            if (name.equals("all")) {
                return all(portNames);
            }
            int p = portNames.indexOf(name);
            if (p < 0) {
                throw bad("ports: no port '" + name + "' (ports: " + String.join(", ", portNames) + ", or all)");
            }
            chosen[p] = true;
        }
        List<Integer> out = new ArrayList<>();
        for (int p = 0; p < chosen.length; p++) {
            if (chosen[p]) {
                out.add(p);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int[] all(List<String> portNames) {
        return java.util.stream.IntStream.range(0, portNames.size()).toArray();
    }

    private static long wholeNumber(JsonNode body, String key) {
        JsonNode n = body.get(key);
        if (n == null) {
            throw bad(key + ": required (whole milliseconds)");
        }
        if (!n.canConvertToLong() || !n.isIntegralNumber()) {
            throw bad(key + ": expected whole milliseconds, got " + n);
        }
        return n.asLong();
    }

    private static int priorities(JsonNode list) {
        if (!list.isArray() || list.isEmpty()) {
            throw bad("priorities: expected a list of priorities 0-" + (MacControl.PRIORITIES - 1) + ", got " + list);
        }
        int mask = 0;
        for (JsonNode n : list) {
            if (!n.isIntegralNumber() || n.asInt() < 0 || n.asInt() >= MacControl.PRIORITIES) {
                throw bad("priorities: expected priorities 0-" + (MacControl.PRIORITIES - 1) + ", got " + n);
            }
            mask |= 1 << n.asInt();
        }
        return mask;
    }

    private static ControlServer.ApiError bad(String message) {
        return new ControlServer.ApiError(400, "pfcwd " + message);
    }
}
