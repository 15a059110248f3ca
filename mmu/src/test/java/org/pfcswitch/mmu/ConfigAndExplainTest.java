package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Validation messages name the field and the value; explain carries the promised keys and the formula inputs. */
class ConfigAndExplainTest {
    @Test
    void validationNamesFieldAndValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Configs.small("dt", 2, -5).build());
        assertEquals("mmu.totalBytes must be > 0, got -5", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Configs.small("nope", 2, 1_000_000).build());
        assertTrue(e.getMessage().startsWith("scheme must be one of st, dt"), e.getMessage());
        assertTrue(e.getMessage().endsWith("got 'nope'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Configs.small("dt", 2, 1_000_000).headroomBytes(5).build());
        assertTrue(e.getMessage().startsWith("mmu.headroomBytes is only used with headroomFormula: fixed"));
    }

    @Test
    void schemeParametersAreCheckedWithFullKeys() {
        MmuConfig typo = Configs.small("dt", 2, 1_000_000).schemeParameter("dt", "alpah", "2").build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Schemes.validate(typo));
        assertTrue(e.getMessage().startsWith("mmu.schemes.dt.alpah is not a parameter of dt"), e.getMessage());
        MmuConfig bad = Configs.small("dt", 2, 1_000_000).schemeParameter("dt", "alpha", "-1").build();
        e = assertThrows(IllegalArgumentException.class, () -> Schemes.validate(bad));
        assertEquals("mmu.schemes.dt.alpha must be a number in (0.0, 1024.0], got '-1'", e.getMessage());
        MmuConfig fraction = Configs.small("dt", 2, 1_000_000).schemeParameter("dt", "alpha", "1/8").build();
        assertEquals("0.125", Mmu.create(fraction, null).scheme().parameters().getFirst().value());
    }

    @Test
    void parametersOfSchemesThatAreNotActiveAreCheckedToo() {
        record Kept(String scheme, String key, String value, String says) {}
        for (Kept k : java.util.List.of(
                new Kept("spfc", "kSpfc", "abc", "mmu.schemes.spfc.kSpfc must be a number"),
                new Kept("reverie", "alpha", "-5", "mmu.schemes.reverie.alpha is not a parameter of reverie"),
                new Kept("bfc", "nonsense", "1", "mmu.schemes.bfc.nonsense is not a parameter of bfc"),
                new Kept("dsh", "alpha", "NaN", "mmu.schemes.dsh.alpha must be a number"))) {
            MmuConfig kept = Configs.small("dt", 2, 1_000_000).schemeParameter(k.scheme(), k.key(), k.value()).build();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Schemes.validate(kept), k.toString());
            assertTrue(e.getMessage().startsWith(k.says()), e.getMessage());
        }
        MmuConfig good = Configs.small("dt", 2, 1_000_000).schemeParameter("spfc", "kSpfc", "2").build();
        Schemes.validate(good);
        assertEquals("spfc", good.withScheme("spfc").scheme(), "a valid kept parameter serves a later change");
    }

    @Test
    void ecnPmaxIsAProbabilityAboveZero() {
        for (double pmax : new double[] {0, -0.1, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Configs.small("dt", 2, 1_000_000).ecnPmax(pmax).build(), Double.toString(pmax));
            assertTrue(e.getMessage().startsWith("mmu.ecn.pmax must be a probability in (0, 1]"), e.getMessage());
        }
        assertEquals(1.0, Configs.small("dt", 2, 1_000_000).ecnPmax(1).build().ecnPmax());
    }

    @Test
    void bufferTooSmallForTheReservationsIsRejected() {
        MmuConfig cfg = Configs.tomahawk("dt").totalBytes(14_000_000).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Schemes.validate(cfg));
        assertTrue(e.getMessage().contains("leaves no shared pool"), e.getMessage());
    }

    @Test
    void explanationHasThePoolsTheCliPrints() {
        MmuExplanation e = MmuExplanation.of(Configs.tomahawk("dt").build());
        assertEquals("dt", e.scheme());
        assertEquals(16_777_216, e.totalBytes());
        assertEquals(2_649_088, e.sharedPoolBytes());
        assertEquals(13_440_000, e.headroomBytes());
        assertEquals(688_128, e.privateBytes());
        String text = e.toText();
        assertTrue(text.contains("fixed value = 60,000 B"), text);
        assertTrue(text.contains("would give 56,840 B"), text);   // Eq. 1 with the same inputs
        assertTrue(text.contains("D_prop = 2,000 ns"), text);
    }

    @Test
    void everySchemeExplainsTheTomahawkModelWithConsistentPools() {
        for (MmuExplanation e : MmuExplanation.ofAllSchemes(Configs.tomahawk("dt").build())) {
            assertTrue(e.privateBytes() + e.headroomBytes() + e.sharedPoolBytes() <= e.totalBytes(), e.scheme());
            assertEquals(32, e.ports().size());
            assertTrue(e.toText().contains("scheme " + e.scheme()));
            assertTrue(!e.parameters().isEmpty(), e.scheme() + " documents no parameters");
        }
    }

    @Test
    void cellsRoundEveryChargeUp() {
        Mmu mmu = Mmu.create(Configs.small("dt", 2, 1_000_000).cellBytes(256).build(), null);
        mmu.admit(0, 3, 1, 3, 1000, 0);
        assertEquals(1024, mmu.ledger().totalUsed());
        mmu.release(0, 3, 1, 3, 1000, 1);
        assertEquals(0, mmu.ledger().totalUsed());
    }
}
