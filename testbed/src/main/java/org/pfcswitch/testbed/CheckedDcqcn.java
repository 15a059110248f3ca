package org.pfcswitch.testbed;

/**
 * The DCQCN reaction point as the ns-3 datacenter simulators' Mellanox model runs it
 * ({@code rdma-hw.cc}, CC mode 1): a CNP does not cut the rate itself, it only sets two flags.
 *
 * <ul>
 *   <li>First CNP: alpha = {@link DcqcnConfig#initialAlpha()}, the rate stays; the alpha timer and
 *       the rate-decrease check start.</li>
 *   <li>Every rate-decrease interval: if a CNP came since the last check, R_C = R_C·(1 − alpha/2)
 *       (R_T = R_C first, unless no increase happened since the last cut), the increase stages
 *       restart and the increase timer starts over.</li>
 *   <li>Every alpha interval: alpha = (1 − g)·alpha, plus g if a CNP came in that interval.</li>
 *   <li>Increase events as in {@link Dcqcn}, but each is judged by the stage count before it (ns-3's
 *       order, {@code RateIncEventTimerMlx}): with F fast-recovery steps the first F events after a
 *       cut are fast recovery, the next an active increase, the rest hyper increases. {@link Dcqcn}
 *       counts the event first, so it reaches active and hyper increase one event sooner.</li>
 * </ul>
 *
 * So a QP cuts its rate at most once per interval however many CNPs arrive (one per marked packet,
 * with {@link CnpPolicy#PER_MARKED_PACKET}). Lazy like its parent: every call replays the timers due
 * (alpha first, then the check, then the increase timer on a tie), allocating nothing.
 */
final class CheckedDcqcn extends Dcqcn {

    private static final long NEVER = Long.MAX_VALUE;

    private final long checkNanos;
    private long nextCheck = NEVER;
    private boolean decreasePending;
    private boolean cnpSinceAlpha;

    CheckedDcqcn(DcqcnConfig config, long checkNanos, long lineBps) {
        super(config, lineBps);
        if (checkNanos <= 0) {
            throw new IllegalArgumentException("cc.rateDecreaseInterval must be > 0, got " + checkNanos + " ns");
        }
        this.checkNanos = checkNanos;
    }

    @Override
    void onCnp(long now) {
        advance(now);
        cnps++;
        decreasePending = true;
        if (!active) {
            active = true;
            alpha = c.initialAlpha();
            nextAlphaDecay = now + c.alphaIntervalNanos();
            nextCheck = now + checkNanos;
            nextTimer = NEVER;                  // no increase before the first cut
        } else {
            cnpSinceAlpha = true;
        }
    }

    @Override
    void advance(long now) {
        if (!active) {
            return;
        }
        if (!decreasePending && !cnpSinceAlpha && rateBps == lineBps && targetBps == lineBps) {
            skipIdleTimers(now);
        }
        while (true) {
            long first = Math.min(nextAlphaDecay, Math.min(nextCheck, nextTimer));
            if (first > now) {
                return;
            }
            if (nextAlphaDecay == first) {
                alpha = decay * alpha + (cnpSinceAlpha ? c.g() : 0);
                cnpSinceAlpha = false;
                nextAlphaDecay += c.alphaIntervalNanos();
            } else if (nextCheck == first) {
                check(first, now);
            } else {
                increase();                     // judged by the stage before this event, as ns-3 does
                timerStage++;
                nextTimer += c.timerNanos();
            }
        }
    }

    /** The rate-decrease check due at {@code at}: a cut if a CNP came; then the next check after it (or after now when idle). */
    private void check(long at, long now) {
        if (decreasePending) {
            decreasePending = false;
            if (timerStage != 0 || byteStage != 0) {
                targetBps = rateBps;            // ns-3 without ClampTargetRate: R_T moves only after an increase
            }
            rateBps = Math.max(c.minRateBps(), (long) (rateBps * (1 - alpha / 2)));
            timerStage = 0;
            byteStage = 0;
            bytesSinceEvent = 0;
            nextTimer = at + c.timerNanos();
            nextCheck = at + checkNanos;
        } else {
            nextCheck += ((now - nextCheck) / checkNanos + 1) * checkNanos;   // nothing to check until a CNP comes
        }
    }

    boolean decreasePending() {
        return decreasePending;
    }
}
