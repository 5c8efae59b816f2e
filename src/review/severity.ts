/**
 * How urgent a review finding is, from least to most.
 *
 * The guidance the built-in rules follow: `critical` for root on the node (privileged containers, container runtime
 * sockets, writable `/`, `/etc` or `/var/lib/kubelet`) and control of the cluster (cluster-admin, Secrets cluster-wide,
 * exec into pods, creating pods); `high` for writable host paths, host namespaces without a reason, `latest` images and
 * RBAC rights limited to a namespace; `medium` for missing limits, probes or seccomp, RBAC wildcards and capabilities
 * that cannot take effect (the agent lacks what it was granted); `low` for hygiene.
 */
export enum Severity {
  /** hygiene: worth fixing, no direct risk. */
  LOW = 'low',
  /** weakens the node's or the workload's defences. */
  MEDIUM = 'medium',
  /** gives an attacker in the container a real foothold on the node or the cluster. */
  HIGH = 'high',
  /** root on the node, or control of the cluster. */
  CRITICAL = 'critical',
}

const ORDER: Severity[] = [Severity.LOW, Severity.MEDIUM, Severity.HIGH, Severity.CRITICAL];

/**
 * Comparisons and parsing for `Severity` values.
 */
export class Severities {
  /**
   * Whether a severity is at or above a threshold: `atLeast(HIGH, MEDIUM)` is true, `atLeast(LOW, MEDIUM)` false.
   *
   * @param severity the severity to test
   * @param threshold the lowest severity that counts
   * @throws when either value is not a `Severity`
   */
  public static atLeast(severity: Severity, threshold: Severity): boolean {
    return Severities.rank(severity) >= Severities.rank(threshold);
  }

  /**
   * The rank of a severity, for sorting: low 1, medium 2, high 3, critical 4.
   *
   * @param severity the severity
   * @throws when the value is not a `Severity`
   */
  public static rank(severity: Severity): number {
    const i = ORDER.indexOf(severity);
    if (i < 0) {
      throw new Error(`severity must be one of ${ORDER.join(', ')}, got ${JSON.stringify(severity)}: pass a Severity value`);
    }
    return i + 1;
  }

  /**
   * Reads a severity as a user writes it (a command-line flag, a config file): `high`, `HIGH` and ` High ` are the same.
   *
   * @param text the severity's name
   * @throws when the text names no severity
   */
  public static parse(text: string): Severity {
    const value = typeof text === 'string' ? text.trim().toLowerCase() : undefined;
    const found = ORDER.find((s) => s === value);
    if (!found) {
      throw new Error(`severity must be one of ${ORDER.join(', ')}, got ${JSON.stringify(text)}`);
    }
    return found;
  }

  /** every severity, from least to most. */
  public static all(): Severity[] {
    return [...ORDER];
  }

  /**
   * The highest of some severities.
   *
   * @param severities at least one severity
   * @throws when the list is empty or holds a value that is not a `Severity`
   */
  public static highest(severities: Severity[]): Severity {
    if (severities.length === 0) throw new Error('highest: give at least one severity');
    return severities.reduce((a, b) => (Severities.rank(b) > Severities.rank(a) ? b : a));
  }

  /**
   * The severity a host-access risk level maps to (the same names: `RiskLevel.HIGH` is `Severity.HIGH`).
   *
   * @param risk a `RiskLevel` value: `low`, `medium`, `high` or `critical`
   * @throws when the value is not a risk level
   */
  public static ofRisk(risk: string): Severity {
    const found = ORDER.find((s) => s === risk);
    if (!found) {
      throw new Error(`risk level must be one of ${ORDER.join(', ')}, got ${JSON.stringify(risk)}: pass a RiskLevel value`);
    }
    return found;
  }
}
