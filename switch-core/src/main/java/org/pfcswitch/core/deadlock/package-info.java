/**
 * PFC deadlock detection shared by every driver: {@link org.pfcswitch.core.deadlock.WaitForGraph}
 * (who waits for whom, asked edge by edge), {@link org.pfcswitch.core.deadlock.BufferDependencyGraph}
 * (the cycle search), {@link org.pfcswitch.core.deadlock.CyclePersistence} (a cycle counts once it
 * lasted long enough), and the live switch's own view of itself ({@link org.pfcswitch.core.deadlock.LocalWaitFor},
 * {@link org.pfcswitch.core.deadlock.DeadlockWatch}). {@code sim}'s {@code DeadlockDetector} builds
 * its graph over a whole testbed, {@code show deadlock --switch} over several live switches; both
 * search it with the same code as the switch itself.
 */
package org.pfcswitch.core.deadlock;
