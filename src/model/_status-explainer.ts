/**
 * Internal: the reading behind `DaemonSetStatus.explain`: what the controller sees on each node, the current revision,
 * the five numbers recounted, one state per node, the rollout and the shortfalls.
 */
import { diagnosePod, podName, recentRestart } from './_pod-diagnosis';
import {
  arr, compareDaemonPods, condition, eventsFor, eventSuffix, isControlledBy, isObject, isPodAvailable, isPodReady,
  isTerminal, isTerminating, namespaceOf, num, REVISION_HASH_LABEL, str, targetNodeName,
  TEMPLATE_GENERATION_ANNOTATION, TEMPLATE_GENERATION_LABEL, time,
} from './_pod-status';
import { DaemonSetCoverage, NodePlacement } from './daemon-set-coverage';
import {
  DaemonSetCounts, DaemonSetNodeState, DaemonSetNodeStatus, DaemonSetRolloutStatus, DaemonSetStatusOptions,
  DaemonSetStatusReport,
} from './daemon-set-status-report';
import { DaemonSetUpdateStrategyType, RolloutPlan } from './rollout-plan';

/** what the controller sees on one node. */
interface NodeView {
  readonly node: any;
  readonly name: string;
  readonly placement: NodePlacement;
  /** the DaemonSet's pods targeting the node, terminal pods marked for deletion left out, the counted one first. */
  readonly pods: any[];
  /** the pod the controller counts (`daemonPods[0]`). */
  readonly counted?: any;
  /** the oldest up-to-date and the oldest older pod that are not being deleted (`findUpdatedPodsOnNode`). */
  readonly newPod?: any;
  readonly oldPod?: any;
  /** more than one old or new pod: the controller leaves the node to its manage loop. */
  readonly excess: boolean;
}

interface Revision {
  readonly hash?: string;
  readonly number?: number;
  /** why this revision is current, for messages. */
  readonly note: string;
}


export class Explainer {
  private readonly namespace: string;
  private readonly name: string;
  private readonly now: number;
  private readonly minReadySeconds: number;
  private readonly events: any[];
  private readonly revisions: any[];
  private readonly revision: Revision;
  private readonly templateGeneration?: string;
  private readonly views: NodeView[];
  private readonly plan: RolloutPlan;
  private readonly observed: boolean;

  constructor(private readonly ds: any, options: DaemonSetStatusOptions) {
    this.namespace = namespaceOf(ds);
    this.name = str(ds.metadata?.name);
    this.now = (options.now ?? new Date()).getTime();
    this.minReadySeconds = num(ds.spec?.minReadySeconds);
    this.events = arr(options.events);
    this.observed = num(ds.metadata?.generation) <= num(ds.status?.observedGeneration);
    this.revisions = arr(options.controllerRevisions).filter((r) => isControlledBy(r, ds, 'DaemonSet'));
    this.revision = this.currentRevision();
    const generation = ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
    this.templateGeneration = typeof generation === 'string' && /^[+-]?[0-9]+$/.test(generation) ? String(BigInt(generation)) : undefined;

    const ownPods = arr(options.pods).filter((p) => isControlledBy(p, ds, 'DaemonSet'));
    const byNode = new Map<string, any[]>();
    for (const pod of ownPods) {
      if (isTerminal(pod) && isTerminating(pod)) continue; // getNodesToDaemonPods(includeDeletedTerminal=false)
      const target = targetNodeName(pod);
      if (target === undefined) continue;
      byNode.set(target, [...(byNode.get(target) ?? []), pod]);
    }
    const coverage = DaemonSetCoverage.plan(ds, options.nodes);
    this.views = options.nodes.map((node, i) => {
      const placement = coverage.placements[i];
      const pods = [...(byNode.get(placement.nodeName) ?? [])].sort(compareDaemonPods);
      let newPod: any;
      let oldPod: any;
      let excess = false;
      for (const pod of pods) {
        if (isTerminating(pod)) continue;
        if (this.isUpdated(pod)) {
          if (newPod) excess = true; else newPod = pod;
        } else if (oldPod) {
          excess = true;
        } else {
          oldPod = pod;
        }
      }
      return { node, name: placement.nodeName, placement, pods, counted: pods[0], newPod, oldPod, excess };
    });
    this.plan = RolloutPlan.of(ds, coverage.desired);
  }

  report(): DaemonSetStatusReport {
    const status = this.statusCounts();
    const computed = this.computedCounts();
    const nodes = this.views.map((v) => this.nodeStatus(v));
    const rollout = this.rollout(nodes);
    const withRollout = nodes.map((n) => (n.state === DaemonSetNodeState.OUTDATED ? this.outdatedMessage(n, rollout) : n));
    const shortfalls = this.shortfalls(status, computed, withRollout);
    const complete = this.observed && status.upToDate >= status.desired && status.available >= status.desired
      && withRollout.every((n) => n.state === DaemonSetNodeState.HEALTHY || n.state === DaemonSetNodeState.EXCLUDED);
    return {
      namespace: this.namespace,
      name: this.name,
      status,
      computed,
      observed: this.observed,
      complete,
      rollout,
      nodes: withRollout,
      shortfalls,
    };
  }

  // ---------- revisions ----------

  private currentRevision(): Revision {
    const template = normalize(this.ds.spec?.template);
    const matching = this.revisions.filter((r) => deepEqual(normalize(withoutPatch(r.data?.spec?.template)), template));
    const highest = (list: any[]) => list.reduce((best, r) => (best === undefined || num(r.revision) >= num(best.revision) ? r : best), undefined);
    let chosen = highest(matching);
    let note = 'the ControllerRevision that matches the template';
    if (!chosen && this.observed && this.revisions.length > 0) {
      chosen = highest(this.revisions);
      note = 'the highest ControllerRevision (none matches the template exactly, but the controller has seen this spec)';
    }
    if (!chosen) {
      return {
        note: this.revisions.length === 0
          ? 'unknown: no ControllerRevision of this DaemonSet was given'
          : 'not recorded yet: the controller has not seen the current template',
      };
    }
    return { hash: revisionHash(chosen, this.name), number: num(chosen.revision), note };
  }

  /** `IsPodUpdated`. */
  private isUpdated(pod: any): boolean {
    const labels = pod?.metadata?.labels ?? {};
    const hashMatches = this.revision.hash !== undefined && this.revision.hash !== '' && labels[REVISION_HASH_LABEL] === this.revision.hash;
    const generationMatches = this.templateGeneration !== undefined && labels[TEMPLATE_GENERATION_LABEL] === this.templateGeneration;
    return hashMatches || generationMatches;
  }

  /** "revision 3 (5d8f6c7b9)" of a pod, from the ControllerRevision with its hash. */
  private podRevision(pod: any): string {
    const hash = str(pod?.metadata?.labels?.[REVISION_HASH_LABEL]);
    if (hash === '') return 'no controller-revision-hash label';
    const rev = this.revisions.find((r) => revisionHash(r, this.name) === hash);
    return rev ? `revision ${num(rev.revision)} (${hash})` : `${hash} (no ControllerRevision left for it)`;
  }

  private currentRevisionText(): string {
    return this.revision.hash !== undefined ? `revision ${this.revision.number} (${this.revision.hash})` : `the current revision (${this.revision.note})`;
  }

  // ---------- counts ----------

  private statusCounts(): DaemonSetCounts {
    const s = this.ds.status ?? {};
    return {
      desired: num(s.desiredNumberScheduled),
      current: num(s.currentNumberScheduled),
      ready: num(s.numberReady),
      upToDate: num(s.updatedNumberScheduled),
      available: num(s.numberAvailable),
      misscheduled: num(s.numberMisscheduled),
    };
  }

  /** `updateDaemonSetStatus`. */
  private computedCounts(): DaemonSetCounts {
    let desired = 0, current = 0, ready = 0, upToDate = 0, available = 0, misscheduled = 0;
    for (const v of this.views) {
      if (v.placement.shouldRun) {
        desired++;
        if (!v.counted) continue;
        current++;
        if (isPodReady(v.counted)) {
          ready++;
          if (isPodAvailable(v.counted, this.minReadySeconds, this.now)) available++;
        }
        if (this.isUpdated(v.counted)) upToDate++;
      } else if (v.counted) {
        misscheduled++;
      }
    }
    return { desired, current, ready, upToDate, available, misscheduled };
  }

  // ---------- node states ----------

  private nodeStatus(v: NodeView): DaemonSetNodeStatus {
    const base = { nodeName: v.name };
    if (!v.placement.shouldRun) {
      const codes = [...new Set(v.placement.reasons.map(placementCode))].join(',');
      let message = v.placement.reasons.join('; ');
      const pod = v.pods.find((p) => !isTerminating(p));
      if (pod) {
        message += v.placement.shouldContinueRunning
          ? `; pod ${podName(pod)} still runs here (a NoSchedule taint keeps new pods off, it does not evict) but is not counted`
          : `; pod ${podName(pod)} is still here and the controller deletes it`;
      }
      return { ...base, state: DaemonSetNodeState.EXCLUDED, reason: codes, message, podName: pod ? podName(pod) : undefined, stuck: false };
    }
    // the pod whose progress decides the node: the new one when the rollout has reached the node, else the old one
    const subject = v.newPod ?? v.oldPod ?? v.pods.find((p) => !isTerminating(p)) ?? v.pods[0];
    if (!subject) return { ...base, ...this.missing(), podName: undefined };
    const outdated = !this.isUpdated(subject);
    const diagnosis = diagnosePod(subject, v.node, this.events) ?? recentRestart(subject, this.now);
    const name = podName(subject);
    if (diagnosis) {
      const note = outdated ? ` The pod is also of an older ${this.podRevision(subject)} than ${this.currentRevisionText()}.` : '';
      const also = v.oldPod && v.newPod && subject === v.newPod ? ` The old pod ${podName(v.oldPod)} still runs beside it (surge).` : '';
      return { ...base, ...diagnosis, message: diagnosis.message + note + also, podName: name };
    }
    if (outdated) {
      const terminating = isTerminating(subject) ? ' It is being deleted to be replaced.' : '';
      return {
        ...base,
        state: DaemonSetNodeState.OUTDATED,
        reason: 'OutdatedRevision',
        message: `pod ${name} runs ${this.podRevision(subject)}; the DaemonSet's current one is ${this.currentRevisionText()}.${terminating}`,
        podName: name,
        stuck: false,
      };
    }
    if (!isPodAvailable(subject, this.minReadySeconds, this.now)) {
      const since = time(condition(subject, 'Ready')?.lastTransitionTime);
      const at = since === undefined ? '' : `; ready since ${iso(since)}, available from ${iso(since + this.minReadySeconds * 1000)}`;
      return {
        ...base,
        state: DaemonSetNodeState.NOT_AVAILABLE,
        reason: 'MinReadySeconds',
        message: `pod ${name} is ready but not yet for minReadySeconds ${this.minReadySeconds}${at}`,
        podName: name,
        stuck: false,
      };
    }
    return {
      ...base,
      state: DaemonSetNodeState.HEALTHY,
      reason: 'Available',
      message: `pod ${name} is ready and available, ${this.revision.hash !== undefined ? this.currentRevisionText() : this.podRevision(subject)}`,
      podName: name,
      stuck: false,
    };
  }

  /** a node that should run the DaemonSet but has no pod: the controller's events say why. */
  private missing(): Omit<DaemonSetNodeStatus, 'nodeName'> {
    const dsEvents = eventsFor(this.events, 'DaemonSet', this.ds);
    const failed = dsEvents.find((e) => e.type === 'Warning' && (e.reason === 'FailedCreate' || e.reason === 'FailedDaemonPod'));
    if (failed) {
      return {
        state: DaemonSetNodeState.MISSING,
        reason: failed.reason,
        message: `no pod on this node; the DaemonSet controller reports: ${failed.message}${eventSuffix(failed)}`,
        stuck: true,
      };
    }
    const lag = this.observed ? '' : ` (the controller has not yet seen generation ${num(this.ds.metadata?.generation)})`;
    return {
      state: DaemonSetNodeState.MISSING,
      reason: 'NoPod',
      message: `no pod on this node yet; the DaemonSet controller creates one on its next sync${lag}`,
      stuck: false,
    };
  }

  /** why a pod is not Ready, in the order a pod starts: undefined when it is Ready. */
  // ---------- rollout ----------

  private rollout(nodes: DaemonSetNodeStatus[]): DaemonSetRolloutStatus {
    const plan = this.plan;
    const stateOf = new Map(nodes.map((n) => [n.nodeName, n]));
    let updated = 0;
    // pods of the current revision not yet available; nodes with only an old pod (what the rollout replaces, in waves);
    // nodes with no pod at all (which the controller creates at once, outside the rollout's budget)
    let pending = 0;
    let toReplace = 0;
    let noPod = 0;
    for (const v of this.views) {
      if (!v.placement.shouldRun) continue;
      if (v.newPod && isPodAvailable(v.newPod, this.minReadySeconds, this.now)) updated++;
      else if (v.newPod) pending++;
      else if (v.oldPod) toReplace++;
      else noPod++;
    }
    const desired = plan.nodeCount;
    const batch = Math.max(plan.maxUnavailable, plan.maxSurge);
    const rolling = plan.strategy === DaemonSetUpdateStrategyType.ROLLING_UPDATE;
    // waves are replacements: with no old pod left, what remains is pods being created or becoming available
    const wavesLeft = rolling && batch > 0 && toReplace > 0 ? Math.ceil(Math.max(0, desired - updated) / batch) : 0;

    let blockedBy: string[] = [];
    let budgetText = '';
    if (rolling && desired > 0) {
      const available = (pod: any) => isPodAvailable(pod, this.minReadySeconds, this.now);
      const stuck = (v: NodeView) => stateOf.get(v.name)?.stuck === true;
      const involved = this.views.filter((v) => v.placement.shouldRun || v.pods.length > 0);
      if (plan.maxSurge === 0) {
        // rollingUpdate without surge: what counts against maxUnavailable, and which old pods are still to replace
        let numUnavailable = 0;
        const stuckConsumers: string[] = [];
        let candidates = 0;
        for (const v of involved) {
          if (v.excess || (!v.oldPod && !v.newPod) || (v.oldPod && v.newPod)) {
            numUnavailable++;
            if (stuck(v)) stuckConsumers.push(v.name);
          } else if (v.newPod) {
            if (!available(v.newPod)) {
              numUnavailable++;
              if (stuck(v)) stuckConsumers.push(v.name);
            }
          } else if (!available(v.oldPod)) {
            numUnavailable++; // replaced at once, whatever the budget
          } else {
            candidates++;
          }
        }
        if (candidates > 0 && stuckConsumers.length >= plan.maxUnavailable) blockedBy = stuckConsumers;
        budgetText = `maxUnavailable ${plan.maxUnavailable}, ${numUnavailable} unavailable now`;
      } else {
        // surge: new pods beside available old ones, at most maxSurge not yet available at once
        let numSurge = 0;
        const stuckConsumers: string[] = [];
        let candidates = 0;
        for (const v of involved) {
          if (v.excess) {
            numSurge++;
          } else if (v.oldPod && v.newPod) {
            if (!available(v.newPod)) {
              numSurge++;
              if (stuck(v)) stuckConsumers.push(v.name);
            }
          } else if (v.oldPod && v.placement.shouldRun && available(v.oldPod)) {
            candidates++;
          }
        }
        if (candidates > 0 && stuckConsumers.length >= plan.maxSurge) blockedBy = stuckConsumers;
        budgetText = `maxSurge ${plan.maxSurge}, ${numSurge} surge pod${numSurge === 1 ? '' : 's'} not yet available`;
      }
    }
    const blocked = blockedBy.length > 0;
    let message: string;
    if (!rolling) {
      const waiting = nodes.filter((n) => n.state === DaemonSetNodeState.OUTDATED).length;
      message = `OnDelete: ${updated} of ${desired} nodes updated; ${waiting === 0 ? 'no pod waits' : `${waiting} node${waiting === 1 ? '' : 's'} keep the old pod until it is deleted by hand`}`;
    } else {
      const besides = [
        noPod > 0 ? `${noPod} node${noPod === 1 ? ' has' : 's have'} no pod` : '',
        pending > 0 ? `${pending} pod${pending === 1 ? '' : 's'} of the current revision not yet available` : '',
      ].filter((x) => x !== '').join(', ');
      const progress = toReplace === 0 && besides !== '' ? `no old pod left to replace; ${besides}` : `${wavesLeft} wave${wavesLeft === 1 ? '' : 's'} left`;
      message = `RollingUpdate (${budgetText || `maxUnavailable ${plan.maxUnavailable}, maxSurge ${plan.maxSurge}`}): ${updated} of ${desired} nodes updated and available, ` +
        progress;
      if (blocked) {
        message += `; blocked by ${blockedBy.map((n) => `${n} (${stateOf.get(n)?.state})`).join(', ')}: no further pod is replaced until ` +
          `${blockedBy.length === 1 ? 'its pod becomes' : 'their pods become'} available or ${blockedBy.length === 1 ? 'is' : 'are'} fixed`;
      }
    }
    if (this.revision.hash === undefined) message += `; current revision ${this.revision.note}`;
    return {
      strategy: plan.strategy,
      maxUnavailable: plan.maxUnavailable,
      maxSurge: plan.maxSurge,
      currentRevisionHash: this.revision.hash,
      currentRevision: this.revision.number,
      updated,
      wavesLeft,
      blocked,
      blockedBy,
      message,
    };
  }

  private outdatedMessage(n: DaemonSetNodeStatus, rollout: DaemonSetRolloutStatus): DaemonSetNodeStatus {
    let next: string;
    if (rollout.strategy === DaemonSetUpdateStrategyType.ON_DELETE) {
      next = ` OnDelete: delete the pod to update this node (kubectl delete pod ${n.podName} -n ${this.namespace}).`;
    } else if (rollout.blocked) {
      next = ` It waits: the rollout is blocked by ${rollout.blockedBy.join(', ')}.`;
    } else {
      next = ' The RollingUpdate replaces it in turn.';
    }
    return { ...n, message: n.message + next };
  }

  // ---------- shortfalls ----------

  private shortfalls(status: DaemonSetCounts, computed: DaemonSetCounts, nodes: DaemonSetNodeStatus[]): string[] {
    const out: string[] = [];
    const byName = new Map(nodes.map((n) => [n.nodeName, n]));
    const list = (views: NodeView[]) => views.map((v) => `${v.name} (${byName.get(v.name)?.state})`).join(', ');
    const should = this.views.filter((v) => v.placement.shouldRun);
    if (this.views.length > status.desired) {
      const excluded = this.views.filter((v) => !v.placement.shouldRun);
      out.push(`DESIRED ${status.desired} of ${this.views.length} nodes: ${excluded.length > 0 ? `${list(excluded)} ${excluded.length === 1 ? 'is' : 'are'} left out by placement` : 'status is behind the nodes'}`);
    }
    const noPod = should.filter((v) => !v.counted);
    if (status.current < status.desired) out.push(`CURRENT ${status.current} < DESIRED ${status.desired}: ${list(noPod) || 'status is behind the pods'}`);
    const notReady = should.filter((v) => v.counted && !isPodReady(v.counted));
    if (status.ready < status.current) out.push(`READY ${status.ready} < CURRENT ${status.current}: ${list(notReady) || 'status is behind the pods'}`);
    const old = should.filter((v) => !v.counted || !this.isUpdated(v.counted));
    if (status.upToDate < status.desired) out.push(`UP-TO-DATE ${status.upToDate} < DESIRED ${status.desired}: ${list(old) || 'status is behind the pods'}`);
    const notAvailable = should.filter((v) => v.counted && isPodReady(v.counted) && !isPodAvailable(v.counted, this.minReadySeconds, this.now));
    if (status.available < status.ready) {
      out.push(`AVAILABLE ${status.available} < READY ${status.ready}: ${list(notAvailable) || 'status is behind the pods'} (minReadySeconds ${this.minReadySeconds})`);
    }
    if (!this.observed) {
      out.push(`the controller has not yet seen the current spec (observedGeneration ${num(this.ds.status?.observedGeneration)} < generation ${num(this.ds.metadata?.generation)}): the numbers are from the previous spec`);
    }
    const names: Array<[keyof DaemonSetCounts, string]> = [['desired', 'DESIRED'], ['current', 'CURRENT'], ['ready', 'READY'], ['upToDate', 'UP-TO-DATE'], ['available', 'AVAILABLE']];
    const differ = names.filter(([k]) => status[k] !== computed[k]).map(([k, label]) => `${label} ${status[k]} (pods: ${computed[k]})`);
    if (differ.length > 0) out.push(`.status disagrees with the nodes and pods given: ${differ.join(', ')}; the controller has not written its latest count, or the objects were taken at different times`);
    return out;
  }
}

/** the placement rule behind one of DaemonSetCoverage's reasons (they start with the field they are about). */
function placementCode(reason: string): string {
  if (reason.startsWith('spec.template.spec.nodeName')) return 'NodeName';
  if (reason.startsWith('nodeSelector')) return 'NodeSelector';
  if (reason.startsWith('required node affinity')) return 'NodeAffinity';
  if (reason.startsWith('taint')) return 'Taint';
  return 'Placement';
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function revisionHash(revision: any, dsName: string): string {
  const label = str(revision?.metadata?.labels?.[REVISION_HASH_LABEL]);
  if (label !== '') return label;
  const name = str(revision?.metadata?.name);
  return name.startsWith(`${dsName}-`) ? name.slice(dsName.length + 1) : name; // constructHistory labels it with its name
}

function withoutPatch(template: any): any {
  if (!isObject(template)) return template;
  const { $patch, ...rest } = template;
  return rest;
}

/** drops null and undefined members, so a field written as null and one left out compare equal. */
function normalize(value: any): any {
  if (Array.isArray(value)) return value.map(normalize);
  if (isObject(value)) {
    const out: Record<string, any> = {};
    for (const key of Object.keys(value)) {
      if (value[key] !== null && value[key] !== undefined) out[key] = normalize(value[key]);
    }
    return out;
  }
  return value;
}

function deepEqual(a: any, b: any): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ak = Object.keys(a);
    const bk = Object.keys(b);
    return ak.length === bk.length && ak.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
