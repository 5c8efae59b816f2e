/** a kind of workload the host-access admission policy checks. */
export enum PolicyWorkload {
  /** apps/v1 DaemonSets. */
  DAEMON_SET = 'DaemonSet',
  /** apps/v1 Deployments. */
  DEPLOYMENT = 'Deployment',
  /** apps/v1 StatefulSets. */
  STATEFUL_SET = 'StatefulSet',
  /** apps/v1 ReplicaSets (those a Deployment makes are checked through their Deployment). */
  REPLICA_SET = 'ReplicaSet',
  /** batch/v1 Jobs (those a CronJob makes are checked through their CronJob). */
  JOB = 'Job',
  /** batch/v1 CronJobs. */
  CRON_JOB = 'CronJob',
  /**
   * v1 Pods that no controller made: a controller's Pods carry its template's metadata, not the controller's (where the
   * reasons are), and are checked through the controller.
   */
  POD = 'Pod',
}

/** what the API server does with a request the policy refuses (the binding's `validationActions`). */
export enum PolicyAction {
  /** the request is refused. */
  DENY = 'Deny',
  /** the request is admitted, with a warning to the client. */
  WARN = 'Warn',
  /** the request is admitted and the refusal written to the audit log. */
  AUDIT = 'Audit',
}

/** what the API server does when the policy cannot be evaluated (an error, or the CEL cost budget exceeded). */
export enum PolicyFailurePolicy {
  /** the request is refused. */
  FAIL = 'Fail',
  /** the request is admitted. */
  IGNORE = 'Ignore',
}
