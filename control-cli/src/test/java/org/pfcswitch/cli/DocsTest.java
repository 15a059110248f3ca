package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The README as a front door and the user docs it indexes: short enough to read on a first visit,
 * an index naming every page of docs/, every file or folder of the repository they name present
 * (a module path written {@code module/.../Name} is looked for under that module), and no
 * development history in them: they describe the product, not how it was built.
 */
class DocsTest {

    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path README = ROOT.resolve("README.md");
    static final Path DOCS = ROOT.resolve("docs");

    /** A path in backquotes or a Markdown link target. */
    private static final Pattern NAMED_PATH = Pattern.compile("`([A-Za-z0-9_.-]+/[A-Za-z0-9_./-]*)`|\\]\\(([^)#\\s]+)");
    /** Words that tell how the project was built rather than what it is. */
    private static final Pattern HISTORY = Pattern.compile("\\bissues? ?\\d*\\b|\\bthis session\\b|\\bengineers?\\b|\\bthe lead\\b",
            Pattern.CASE_INSENSITIVE);

    static List<Path> userDocs() {
        List<Path> docs = new ArrayList<>(List.of(README, ROOT.resolve("testbed-configs").resolve("README.md")));
        try (Stream<Path> pages = Files.list(DOCS)) {
            pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    @Test
    void theReadmeFitsAFirstVisit() throws IOException {
        long lines = Files.readAllLines(README).size();
        assertTrue(lines <= 250, "README.md has " + lines + " lines; at most 250");
    }

    @Test
    void theReadmeIndexesEveryPageOfDocs() throws IOException {
        String readme = Files.readString(README);
        Set<String> missing = new TreeSet<>();
        try (Stream<Path> pages = Files.list(DOCS)) {
            pages.map(p -> "docs/" + p.getFileName()).filter(n -> n.endsWith(".md"))
                    .filter(n -> !readme.contains("](" + n + ")")).forEach(missing::add);
        }
        assertEquals(Set.of(), missing, "pages of docs/ the README's index does not link");
    }

    @Test
    void everyFileTheDocsNameExists() throws IOException {
        Set<String> topLevel = new TreeSet<>();
        try (Stream<Path> entries = Files.list(ROOT)) {
            entries.forEach(p -> topLevel.add(p.getFileName().toString()));
        }
        List<String> stale = new ArrayList<>();
        for (Path doc : userDocs()) {
            Matcher m = NAMED_PATH.matcher(Files.readString(doc));
            while (m.find()) {
                boolean link = m.group(2) != null;
                String named = link ? m.group(2) : m.group(1);
                if (named.contains("://") || named.startsWith("mailto:")) {
                    continue;
                }
                if (link ? !resolves(doc.getParent(), named) : topLevel.contains(named.substring(0, named.indexOf('/')))
                        && !resolves(ROOT, named)) {
                    stale.add(ROOT.relativize(doc) + ": " + named);
                }
            }
        }
        assertEquals(List.of(), stale, "paths the docs name that are not in the repository");
    }

    /**
     * {@code named} under {@code base}; {@code a/.../b/C} is any {@code b/C} (or {@code b/C.java})
     * under {@code a}, and so is {@code a/b/C} when {@code a} is a module (its class or package).
     */
    static boolean resolves(Path base, String named) throws IOException {
        if (Files.exists(base.resolve(named))) {
            return true;
        }
        int slash = named.indexOf('/');
        if (!named.contains("/.../") && slash > 0 && Files.exists(base.resolve(named.substring(0, slash)).resolve("pom.xml"))) {
            named = named.substring(0, slash) + "/.../" + named.substring(slash + 1);
        }
        int dots = named.indexOf("/.../");
        if (dots < 0) {
            return false;
        }
        Path under = base.resolve(named.substring(0, dots));
        String tail = "/" + named.substring(dots + "/.../".length());
        if (!Files.isDirectory(under)) {
            return false;
        }
        try (Stream<Path> all = Files.walk(under)) {
            return all.map(Path::toString).filter(p -> !p.contains("/target/"))
                    .anyMatch(p -> p.endsWith(tail) || p.endsWith(tail + ".java"));
        }
    }

    @Test
    void theUserDocsCarryNoDevelopmentHistory() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path doc : userDocs()) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = HISTORY.matcher(lines.get(i));
                if (m.find()) {
                    found.add(ROOT.relativize(doc) + ":" + (i + 1) + ": '" + m.group() + "' in " + lines.get(i).strip());
                }
            }
        }
        assertEquals(List.of(), found, "development history in the user docs");
    }

    /** The path check finds stale names and only those. */
    @Test
    void resolvesFindsModulePathsAndRefusesStaleOnes() throws IOException {
        assertTrue(resolves(ROOT, "control-server/.../json/JsonOutput"));
        assertTrue(resolves(ROOT, "testbed-configs/netns-3hosts.yaml"));
        assertTrue(!resolves(ROOT, "control-cli/.../json/JsonOutput"), "JsonOutput is control-server's");
        assertTrue(!resolves(ROOT, "dataplane/.../core/SwitchCore"), "SwitchCore is switch-core's");
        assertTrue(resolves(ROOT, "mmu/Schemes") && !resolves(ROOT, "mmu/SwitchCore"), "a module's class by its short name");
        assertTrue(HISTORY.matcher("as issue 14 asked").find() && HISTORY.matcher("other engineers' builds").find()
                && !HISTORY.matcher("the reissued frame").find());
    }
}
