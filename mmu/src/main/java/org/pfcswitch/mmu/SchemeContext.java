package org.pfcswitch.mmu;

/** What a scheme is built from: the configuration, the shared ledger and flow-control state, and its parameters. */
public record SchemeContext(MmuConfig config, BufferLedger ledger, FlowControl flowControl,
        SchemeParameters parameters, RandomSource random) {}
