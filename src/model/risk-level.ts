/**
 * How much a host privilege gives an attacker who controls the container, from least to most.
 */
export enum RiskLevel {
  /** information of little value, or nuisance on the node. */
  LOW = 'low',
  /** sensitive information, or interference with other workloads on the node. */
  MEDIUM = 'medium',
  /** secrets or control of a part of the node, a step away from root on it. */
  HIGH = 'high',
  /** root on the node, or control of the cluster. */
  CRITICAL = 'critical',
}

/**
 * The risk of one host privilege, in plain English.
 */
export interface HostRiskAssessment {
  /** how much the privilege gives an attacker. */
  readonly risk: RiskLevel;

  /** what an attacker who controls the container gains through it. */
  readonly attackerGains: string;

  /** how to get what the agent needs with less. */
  readonly saferAlternative: string;

  /**
   * For a hostPath: the catalogue path that decided the risk (the longest catalogue prefix of the path, or a riskier
   * catalogue path below it).
   *
   * @default - not a hostPath, or a path the catalogue does not cover
   */
  readonly matchedPath?: string;
}
