import { RiskLevel } from '../../src/model';
import { Severities, Severity } from '../../src/review';

describe('Severities', () => {
  test('atLeast compares by rank', () => {
    expect(Severities.atLeast(Severity.HIGH, Severity.MEDIUM)).toBe(true);
    expect(Severities.atLeast(Severity.MEDIUM, Severity.MEDIUM)).toBe(true);
    expect(Severities.atLeast(Severity.LOW, Severity.MEDIUM)).toBe(false);
    expect(Severities.atLeast(Severity.CRITICAL, Severity.LOW)).toBe(true);
    expect(Severities.all().map((s) => Severities.rank(s))).toEqual([1, 2, 3, 4]);
  });

  test('parse reads any case and surrounding spaces', () => {
    expect(Severities.parse('high')).toBe(Severity.HIGH);
    expect(Severities.parse(' CRITICAL ')).toBe(Severity.CRITICAL);
    expect(Severities.parse('Low')).toBe(Severity.LOW);
  });

  test('fails parsing an unknown severity, naming the valid ones', () => {
    expect(() => Severities.parse('severe')).toThrow('severity must be one of low, medium, high, critical, got "severe"');
    expect(() => Severities.parse('')).toThrow(/got ""/);
    expect(() => Severities.atLeast('urgent' as Severity, Severity.LOW)).toThrow(/severity must be one of low, medium, high, critical, got "urgent": pass a Severity value/);
  });

  test('highest and ofRisk', () => {
    expect(Severities.highest([Severity.LOW, Severity.HIGH, Severity.MEDIUM])).toBe(Severity.HIGH);
    expect(() => Severities.highest([])).toThrow('highest: give at least one severity');
    expect(Object.values(RiskLevel).map((r) => Severities.ofRisk(r))).toEqual([Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL]);
    expect(() => Severities.ofRisk('extreme')).toThrow(/risk level must be one of/);
  });
});
