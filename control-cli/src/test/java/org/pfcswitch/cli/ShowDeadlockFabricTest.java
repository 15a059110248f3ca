package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.cli.client.FabricDeadlockTest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;

/**
 * {@code pfcswitch show deadlock --switch ...} over HTTP: three loopback servers answer as the
 * three switches of a deadlocked sim ring would ({@link FabricDeadlockTest}); the command fetches
 * each, joins them and names the ring's cycle, as a table and as JSON. Bad uses are refused.
 */
class ShowDeadlockFabricTest {

    @Test
    void theCommandJoinsTheSwitchesAndNamesTheCycle() throws Exception {
        List<JsonNode> views = FabricDeadlockTest.views(FabricDeadlockTest.ring(true).tb());
        List<HttpServer> servers = new ArrayList<>();
        List<String> args = new ArrayList<>(List.of("show", "deadlock"));
        try {
            for (int s = 0; s < 3; s++) {
                HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
                byte[] body = views.get(s).toString().getBytes(StandardCharsets.UTF_8);
                server.createContext("/api/v1/show/deadlock", ex -> {
                    ex.getResponseHeaders().set("Content-Type", "application/json");
                    ex.sendResponseHeaders(200, body.length);
                    ex.getResponseBody().write(body);
                    ex.close();
                });
                server.start();
                servers.add(server);
                args.add("--switch");
                args.add("sw" + s + "=http://127.0.0.1:" + server.getAddress().getPort());
            }
            Cli text = Cli.run(args.toArray(String[]::new));
            assertEquals(0, text.exitCode(), text.err());
            assertTrue(text.out().contains("fabric cycle: sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3"), text.out());
            args.add("--json");
            Cli json = Cli.run(args.toArray(String[]::new));
            assertEquals(0, json.exitCode(), json.err());
            JsonNode j = new ObjectMapper().readTree(json.out());
            assertEquals("sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3", j.get("cycle").get("description").asText());
            assertEquals(3, j.get("switches").size());
            // unnamed switches are sw0, sw1, ...: the same names here
            List<String> plain = new ArrayList<>(List.of("show", "deadlock"));
            for (HttpServer server : servers) {
                plain.add("--switch");
                plain.add("http://127.0.0.1:" + server.getAddress().getPort());
            }
            assertTrue(Cli.run(plain.toArray(String[]::new)).out().contains("fabric cycle: sw0:p2/3 -> sw1:p2/3"));
        } finally {
            servers.forEach(s -> s.stop(0));
        }
    }

    @Test
    void switchesJoinForTheDeadlockViewOnly() {
        Cli r = Cli.run("show", "pfc", "--switch", "http://127.0.0.1:1");
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("--switch joins switches for the deadlock view only"), r.err());
        Cli down = Cli.run("show", "deadlock", "--switch", "http://127.0.0.1:1");
        assertEquals(1, down.exitCode(), "no switch answers: " + down.err());
    }
}
