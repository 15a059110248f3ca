package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link PriorityClassifier#classifyRaw} agrees with {@code classify(FrameParser.parse(...))}
 * on priority, runt and MAC-control detection and on errors of the layers it reads, for random
 * valid RoCE frames and for the same frames with one byte of their headers replaced and cut short.
 */
class RawClassifierProperties {

    @Property
    void agreesOnValidFrames(@ForAll("roceFields") CodecProperties.RoceFields r,
                             @ForAll @IntRange(min = 0, max = 7) int defaultPriority, @ForAll boolean trustDscp) {
        RoceFrameBuilder b = CodecProperties.builder(r);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        RawClassifierTest.assertAgrees(classifier(trustDscp, defaultPriority), s, len);
    }

    @Property
    void agreesOnMutatedAndCutFrames(@ForAll("roceFields") CodecProperties.RoceFields r,
                                     @ForAll @IntRange(min = 0, max = 47) int at, @ForAll byte value,
                                     @ForAll @IntRange(min = 0, max = 10_000) int cut, @ForAll boolean trustDscp) {
        RoceFrameBuilder b = CodecProperties.builder(r);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        NetOrder.put8(s, at, value);
        int shorter = cut % (len + 1);
        RawClassifierTest.assertAgrees(classifier(trustDscp, 4), s.asSlice(0, shorter), shorter);
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<CodecProperties.RoceFields> roceFields() {
        return new CodecProperties().roceFields();
    }

    private static PriorityClassifier classifier(boolean trustDscp, int defaultPriority) {
        return trustDscp ? PriorityClassifier.trustDscp(defaultPriority) : PriorityClassifier.trustPcp(defaultPriority);
    }
}
