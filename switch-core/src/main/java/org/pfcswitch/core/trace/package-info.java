/**
 * Full-resolution traces of a running switch core: ingress queue lengths, the scheme's XOFF
 * thresholds and PFC frames, sampled by the thread that owns the core ({@link
 * org.pfcswitch.core.trace.TraceRecorder}) into a lock-free single-producer single-consumer ring
 * ({@link org.pfcswitch.core.trace.TraceRing}) that a trace thread writes to a CSV file ({@link
 * org.pfcswitch.core.trace.TraceWriter}, format there) and plots read back ({@link
 * org.pfcswitch.core.trace.TraceReader}). A switch whose ports are split among workers is traced by
 * one recorder per worker, each into its own ring, and {@link org.pfcswitch.core.trace.TraceMerge}
 * joins their samples into the records one recorder of the whole switch writes.
 *
 * <pre>
 *   TraceRecorder rec = new TraceRecorder(10_000, null, null, 1 &lt;&lt; 16);   // 10 us, every port, lossless priorities
 *   rec.bind(core);                                                    // on the core's thread, before its loop
 *   TraceWriter w = TraceWriter.open(rec.ring(), path, header).start("trace", 100_000);
 *   ... the core's loop: rec.sample(core, now) on every pass ...
 *   w.close();                                                         // after the loop stopped
 * </pre>
 */
package org.pfcswitch.core.trace;
