package org.pfcswitch.cli;

import java.util.List;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.ParameterDoc;

/**
 * The JSON of {@code pfcswitch mmu explain --json}, read from {@link MmuExplanation}'s accessors
 * (the mmu module itself writes no JSON: it depends on nothing). Keys: {@code scheme, totalBytes,
 * cellBytes, privateBytes, sharedPoolBytes, headroomBytes, headroomKind, pools[{name, bytes, note}],
 * thresholds[{name, bytes, formula}], parameters[{name, value, default, source}], ports[{port,
 * speedBps, cableDelayNs, headroomFormula, insuranceBytes, queues[{priority, lossless, privateBytes,
 * headroomBytes, emptyThresholdBytes}]}]}.
 */
final class MmuExplanationJson {

    private MmuExplanationJson() {}

    /** One explanation as a document. */
    static String of(MmuExplanation e) {
        JsonOutput j = new JsonOutput();
        write(j, e);
        return j.toString();
    }

    /** Several explanations as one array (for {@code --scheme all}). */
    static String of(List<MmuExplanation> all) {
        JsonOutput j = new JsonOutput().beginArray();
        for (MmuExplanation e : all) {
            write(j, e);
        }
        return j.endArray().toString();
    }

    static void write(JsonOutput j, MmuExplanation e) {
        j.beginObject()
                .field("scheme", e.scheme())
                .field("totalBytes", e.totalBytes())
                .field("cellBytes", e.cellBytes())
                .field("privateBytes", e.privateBytes())
                .field("sharedPoolBytes", e.sharedPoolBytes())
                .field("headroomBytes", e.headroomBytes())
                .field("headroomKind", e.headroomKind());
        j.beginArray("pools");
        for (MmuExplanation.Pool p : e.pools()) {
            j.beginObject().field("name", p.name()).field("bytes", p.bytes()).field("note", p.note()).endObject();
        }
        j.endArray().beginArray("thresholds");
        for (MmuExplanation.Threshold t : e.thresholds()) {
            j.beginObject().field("name", t.name()).field("bytes", t.bytes()).field("formula", t.formula()).endObject();
        }
        j.endArray().beginArray("parameters");
        for (ParameterDoc d : e.parameters()) {
            j.beginObject().field("name", d.name()).field("value", d.value()).field("default", d.defaultValue())
                    .field("source", d.source()).endObject();
        }
        j.endArray().beginArray("ports");
        for (MmuExplanation.PortLine p : e.ports()) {
            j.beginObject()
                    .field("port", p.port())
                    .field("speedBps", p.speedBps())
                    .field("cableDelayNs", p.cableDelayNs())
                    .field("headroomFormula", p.headroomFormula())
                    .field("insuranceBytes", p.insuranceBytes())
                    .beginArray("queues");
            for (MmuExplanation.QueueLine q : p.queues()) {
                j.beginObject()
                        .field("priority", q.priority())
                        .field("lossless", q.lossless())
                        .field("privateBytes", q.privateBytes())
                        .field("headroomBytes", q.headroomBytes())
                        .field("emptyThresholdBytes", q.emptyThresholdBytes())
                        .endObject();
            }
            j.endArray().endObject();
        }
        j.endArray().endObject();
    }
}
