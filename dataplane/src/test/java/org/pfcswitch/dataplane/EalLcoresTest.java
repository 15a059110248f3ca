package org.pfcswitch.dataplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The CPUs an {@code eal.lcores} map names, so that run can refuse an offline one before EAL starts. */
class EalLcoresTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = ';', value = {
            "3; 3",
            "0-2; 0,1,2",
            "0@(0-3); 0,1,2,3",
            "0-1,2@5; 0,1,5",
            "(0,1)@(2-3); 2,3",
            "0@1,(1-2)@(4,6-7); 1,4,6,7"})
    void namesTheCpusEveryLcoreMayRunOn(String lcores, String cpus) {
        BitSet want = new BitSet();
        for (String c : cpus.split(",")) {
            want.set(Integer.parseInt(c.strip()));
        }
        assertEquals(want, EalArguments.lcoreCpus(lcores), lcores);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0@", "0@(1", "all", "0,,1", "0@1,", "(a)@1", "0@1@2", "5-2"})
    void refusesWhatIsNoLcoreMapInOneLine(String lcores) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EalArguments.lcoreCpus(lcores));
        assertTrue(e.getMessage().contains("is not an EAL lcore map") && !e.getMessage().contains("\n"), e.getMessage());
    }
}
