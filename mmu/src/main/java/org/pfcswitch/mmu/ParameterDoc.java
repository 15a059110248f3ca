package org.pfcswitch.mmu;

/**
 * One row of a scheme's parameter table: what it is called, the value in force, the paper's default
 * and where that default comes from (paper section, spec tag, or "[I]" for our interpretation).
 */
public record ParameterDoc(String name, String value, String defaultValue, String source) {}
