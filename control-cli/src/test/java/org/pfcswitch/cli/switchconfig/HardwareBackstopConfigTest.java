package org.pfcswitch.cli.switchconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.dataplane.SwitchConfig;
import org.pfcswitch.dataplane.SwitchConfig.HardwarePfc.Call;
import org.pfcswitch.config.ConfigException;
import org.pfcswitch.config.ConfigNode;

/**
 * {@code pfc.hardwareBackstop}: the calls each NIC gets (one per lossless priority, its thresholds
 * in KiB as ixgbe takes them, the switch's pause quanta), and thresholds that cannot work. Whether
 * a NIC takes them is up to its driver: no NIC here can (RunCommandTest: net_null refuses at start).
 */
class HardwareBackstopConfigTest {

    private static final String PORTS = "ports:\n  - {name: a, device: \"0000:3b:00.0\", speed: 25G}\n";

    private static SwitchConfig read(String yaml) {
        return SwitchConfigReader.read(ConfigNode.parse("lab.yaml", PORTS + yaml));
    }

    @Test
    void eachNicGetsOneCallPerLosslessPriorityWithTheSwitchsPauseQuanta() {
        SwitchConfig c = read("mmu: {losslessPriorities: [3, 4]}\n"
                + "pfc: {pauseQuanta: 1000, hardwareBackstop: {highWater: 96KiB, lowWater: 64KiB}}\n");
        assertEquals(List.of(new Call(3, 96, 64, 1000), new Call(4, 96, 64, 1000)), c.hardwarePfc().calls());
        assertEquals(c.hardwarePfc(), c.withScheme("spfc").hardwarePfc(), "kept when the scheme changes");
        assertNull(read("pfc: {pauseQuanta: 1000}\n").hardwarePfc(), "none unless asked for");
    }

    @Test
    void thresholdsThatCannotWorkAreNamed() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> read("pfc: {hardwareBackstop: {highWater: 64KiB, lowWater: 96KiB}}\n"));
        assertEquals("lab.yaml: pfc.hardwareBackstop.lowWater: must be below highWater (65536 B), got 98304 B", e.getMessage());
        e = assertThrows(ConfigException.class, () -> read("pfc: {hardwareBackstop: {highWater: 100, lowWater: 0}}\n"));
        assertEquals("lab.yaml: pfc.hardwareBackstop.highWater: must be from 1KiB to 1GiB of the NIC's receive buffer,"
                + " got 100 B", e.getMessage());
        e = assertThrows(ConfigException.class, () -> read("pfc: {hardwareBackstop: {highWater: 96KiB, low: 1KiB}}\n"));
        assertTrue(e.getMessage().startsWith("lab.yaml: pfc.hardwareBackstop.low: unknown key"), e.getMessage());
    }
}
