/**
 * Record and replay: the arrival-record file format ({@link org.pfcswitch.core.record.ArrivalFormat}),
 * its reader and writer, the live recorder's ring, and the open-loop replay of a recording through a
 * {@link org.pfcswitch.core.SwitchCore} in virtual time.
 */
package org.pfcswitch.core.record;
