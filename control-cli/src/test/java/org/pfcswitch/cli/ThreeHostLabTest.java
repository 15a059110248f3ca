package org.pfcswitch.cli;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set-up the live tests of a switch between three namespace hosts share: a {@link NetnsLab}
 * of h0, h1 and h2 made once per test class in a temporary folder ({@code dir}, also theirs for
 * configs and captures) and removed after its last test.
 */
abstract class ThreeHostLabTest {

    @TempDir
    static Path dir;
    static NetnsLab lab;

    @BeforeAll
    static void labUp() throws Exception {
        lab = NetnsLab.up(dir, 3);
    }

    @AfterAll
    static void labDown() throws Exception {
        if (lab != null) {
            lab.close();
            lab = null;
        }
    }
}
