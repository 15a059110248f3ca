package org.pfcswitch.dataplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuIsolationTest {

    @TempDir
    Path sys;

    @Test
    void isolatedAndTicklessCpusAreSaidSoAndTheOthersGetTheBootOptions() throws Exception {
        Files.writeString(sys.resolve("isolated"), "2-3\n");
        Files.writeString(sys.resolve("nohz_full"), "2\n");
        CpuIsolation c = CpuIsolation.of(sys);
        assertEquals("CPUs 2 isolated (isolcpus) and tickless (nohz_full)", c.describe("2"));
        String three = c.describe("3");
        assertTrue(three.startsWith("CPUs 3: scheduler tick on (3); boot with isolcpus=3 nohz_full=3"), three);
        String one = c.describe("1-2");
        assertTrue(one.startsWith("CPUs 1-2: not isolated (1: the scheduler may run other threads there), scheduler tick on (1)"),
                one);
        assertTrue(c.describe(null).startsWith("not pinned"));
    }

    @Test
    void aMachineWithoutTheFilesIsolatesNothing() {
        String s = CpuIsolation.of(sys.resolve("absent")).describe("0");
        assertTrue(s.startsWith("CPUs 0: not isolated (0: "), s);
    }

    @Test
    void thisMachineCanBeRead() {
        assertTrue(CpuIsolation.ofThisMachine().describe("0").startsWith("CPUs 0"));
    }
}
