// The two forms of the host-access reasons always agree: for any list of reasons (duplicates, blank reasons, entries
// with and without a container, details holding '|' and '%') and any privilege asked about, the per-privilege
// annotations NodeAgent writes explain it (read as the admission policy's CEL reads them) exactly when the synth
// gate's check of the JSON list accepts it. The CEL itself is checked against the same gate on the real API server
// (test/cluster/admission-policy.test.ts).
import * as fc from 'fast-check';
import { HostAccessReason, HostAccessReasons, HostAccessType } from '../../src';
import { descriptorOf } from '../../src/model/_host-privileges';
import { REASON_ANNOTATION_PREFIX, explainedIn, privilegeIdentity, reasonAnnotationErrors, reasonAnnotations, unexplainedPrivileges } from '../../src/model/_reason-annotations';

const type = fc.constantFrom(...Object.values(HostAccessType));
const detail = fc.oneof(fc.constantFrom('', '/var/log (read-only)', 'NET_ADMIN', '9100/TCP', 'agent', 'a | b', '50%', '%7C'), fc.string({ maxLength: 6 }));
const container = fc.option(fc.constantFrom('agent', 'init', 'a-b'), { nil: undefined });
const reasonText = fc.oneof(fc.constantFrom('', ' ', '\u00a0', '\ufeff', '\u0085', 'why | it', 'needed'), fc.string({ maxLength: 4 }));
const entry: fc.Arbitrary<HostAccessReason> = fc.record({ type, detail, container, reason: reasonText })
  .map((r) => (r.container === undefined ? { type: r.type, detail: r.detail, reason: r.reason } : r));

test('the per-privilege annotations explain a privilege exactly when the JSON list does', () => {
  fc.assert(fc.property(fc.array(entry, { maxLength: 8 }), type, detail, container, (reasons, t, d, c) => {
    // round-trip through the annotation, as the gate reads it
    const parsed = HostAccessReasons.parse({ [HostAccessReasons.ANNOTATION]: HostAccessReasons.format(reasons) });
    const pod = descriptorOf(t).scope === 'pod';
    // a container's privilege always names its container (the detectors set it), a pod's never does
    const item = { type: t, detail: d, ...pod ? {} : { container: c ?? 'agent' } };
    const gate = unexplainedPrivileges([item], parsed).length === 0 || !descriptorOf(t).reasonRequired(item);
    expect(explainedIn(reasonAnnotations(parsed), t, d, item.container)).toBe(gate);
  }), { numRuns: 3000 });
});

test('every key is a valid annotation key under the prefix, and one value names one privilege', () => {
  const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
  fc.assert(fc.property(fc.array(entry, { maxLength: 12 }), (reasons) => {
    const annotations = reasonAnnotations(reasons);
    for (const [key, value] of Object.entries(annotations)) {
      const name = key.slice(REASON_ANNOTATION_PREFIX.length);
      expect(key.startsWith(REASON_ANNOTATION_PREFIX) && name.length <= 63 && NAME.test(name)).toBe(true);
      // the identity ends at the first ' | ': it holds no '|'
      expect(value.split(' | ')[0]).not.toContain('|');
    }
  }), { numRuns: 1000 });
});

test('identities: a container in brackets, the detail after a space, % and | escaped', () => {
  expect(privilegeIdentity(HostAccessType.HOST_NETWORK, '')).toBe('hostNetwork');
  expect(privilegeIdentity(HostAccessType.CAPABILITY, 'NET_ADMIN', 'agent')).toBe('capability[agent] NET_ADMIN');
  expect(privilegeIdentity(HostAccessType.HOST_PATH, '/a|b%c (read-only)')).toBe('hostPath /a%7Cb%25c (read-only)');
  expect(reasonAnnotations([{ type: HostAccessType.HOST_PATH, detail: '/var/log (read-only)', container: 'agent', reason: 'logs' }]))
    .toEqual({ 'host-access.node-agents.cdk8s.io/hostpath-var-log-read-only': 'hostPath /var/log (read-only) | logs' });
});

// the gate's check of the two forms (reasonAnnotationErrors) against the plain definition it replaced, which built
// both sets of names for every manifest: the same verdict for any annotations (expected ones kept, dropped, changed,
// added), and the same message
function referenceErrors(annotations: { [key: string]: string }): string[] {
  let reasons: HostAccessReason[];
  try {
    reasons = HostAccessReasons.parse(annotations);
  } catch {
    return [];
  }
  const expected = reasonAnnotations(reasons);
  const actual = Object.fromEntries(Object.entries(annotations).filter(([k]) => k.startsWith(REASON_ANNOTATION_PREFIX)));
  const differ = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort().filter((k) => expected[k] !== actual[k]);
  return differ.length === 0 ? [] : [differ.join(', ')];
}

test('reasonAnnotationErrors: the verdict of the plain definition, for any change to the annotations', () => {
  const edit = fc.record({
    drop: fc.array(fc.nat(), { maxLength: 2 }),
    change: fc.array(fc.tuple(fc.nat(), fc.constantFrom('hostNetwork | other', '', 'x')), { maxLength: 2 }),
    add: fc.array(fc.tuple(fc.constantFrom('hostnetwork', 'x', 'capability-agent-net_admin', 'privilege'), fc.constantFrom('hostNetwork | y', 'z')), { maxLength: 2 }),
    other: fc.boolean(),
  });
  fc.assert(fc.property(fc.array(entry, { maxLength: 6 }), edit, fc.boolean(), (reasons, e, unreadable) => {
    const json = unreadable ? '[{"type":"nope"}]' : HostAccessReasons.format(reasons);
    const annotations: { [key: string]: string } = { [HostAccessReasons.ANNOTATION]: json };
    if (!unreadable) Object.assign(annotations, reasonAnnotations(HostAccessReasons.parse(annotations)));
    const names = Object.keys(annotations).filter((k) => k.startsWith(REASON_ANNOTATION_PREFIX));
    for (const i of e.drop) if (names.length > 0) delete annotations[names[i % names.length]];
    for (const [i, value] of e.change) if (names.length > 0) annotations[names[i % names.length]] = value;
    for (const [name, value] of e.add) annotations[`${REASON_ANNOTATION_PREFIX}${name}`] = value;
    if (e.other) annotations['example.com/unrelated'] = 'v';
    const errors = reasonAnnotationErrors({ metadata: { annotations } });
    const reference = referenceErrors(annotations);
    expect(errors.length).toBe(reference.length);
    if (reference.length > 0) expect(errors[0]).toContain(`metadata.annotations ${reference[0]}: `);
  }), { numRuns: 3000 });
});
