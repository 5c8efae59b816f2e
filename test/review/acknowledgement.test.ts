import { Acknowledgements } from '../../src/review';

const KEY = 'node-agents.cdk8s.io/acknowledged';

describe('Acknowledgements', () => {
  test('the annotation key', () => {
    expect(Acknowledgements.ANNOTATION).toBe(KEY);
  });

  test('parse reads {rule, reason} and an optional container, trimming them', () => {
    const value = JSON.stringify([{ rule: ' NA-NAMESPACE ', reason: ' kube-proxy convention ' }, { rule: 'NA-RUN-AS-NON-ROOT', container: 'init', reason: 'chowns /var/lib/agent' }]);
    expect(Acknowledgements.parse({ [KEY]: value, other: 'x' })).toEqual([
      { rule: 'NA-NAMESPACE', reason: 'kube-proxy convention' },
      { rule: 'NA-RUN-AS-NON-ROOT', container: 'init', reason: 'chowns /var/lib/agent' },
    ]);
  });

  test('parse returns nothing without the annotation', () => {
    expect(Acknowledgements.parse()).toEqual([]);
    expect(Acknowledgements.parse({})).toEqual([]);
  });

  test('fails parsing malformed values with clear errors', () => {
    expect(() => Acknowledgements.parse({ [KEY]: '{oops' })).toThrow(/^annotation node-agents.cdk8s.io\/acknowledged is not valid JSON \(.*\): write a JSON array of/);
    expect(() => Acknowledgements.parse({ [KEY]: '{"rule":"X","reason":"y"}' })).toThrow('annotation node-agents.cdk8s.io/acknowledged must be a JSON array of {"rule": "...", "reason": "..."}, got {"rule":"X","reason":"y"}');
    expect(() => Acknowledgements.parse({ [KEY]: '["NA-NAMESPACE"]' })).toThrow('annotation node-agents.cdk8s.io/acknowledged: entry 0 must be an object {"rule": "...", "reason": "..."}, got "NA-NAMESPACE"');
    expect(() => Acknowledgements.parse({ [KEY]: '[{"reason":"r"}]' })).toThrow(/entry 0 must name the rule it acknowledges/);
    expect(() => Acknowledgements.parse({ [KEY]: '[{"rule":"NA-NAMESPACE","reason":"ok"},{"rule":"NA-PROBES","reason":"  "}]' }))
      .toThrow('annotation node-agents.cdk8s.io/acknowledged: entry 1 (rule NA-PROBES) has no reason: say in one line why the finding is accepted');
    expect(() => Acknowledgements.parse({ [KEY]: '[{"rule":"NA-PROBES","reason":"r","container":3}]' })).toThrow(/container must be a container name, got 3/);
  });

  test('format is sorted, deduplicated and round-trips through parse', () => {
    const acks = [
      { rule: 'NA-PROBES', reason: 'no health endpoint' },
      { rule: 'NA-NAMESPACE', reason: 'kube-system by convention' },
      { rule: 'NA-PROBES', reason: 'no health endpoint' },
      { rule: 'NA-CAPABILITIES', container: 'agent', reason: 'eBPF' },
    ];
    const text = Acknowledgements.format(acks);
    expect(text).toBe('[{"rule":"NA-CAPABILITIES","container":"agent","reason":"eBPF"},{"rule":"NA-NAMESPACE","reason":"kube-system by convention"},' +
      '{"rule":"NA-PROBES","reason":"no health endpoint"}]');
    expect(Acknowledgements.format([...acks].reverse())).toBe(text);
    expect(Acknowledgements.parse({ [KEY]: text })).toHaveLength(3);
  });

  test('format rejects an acknowledgement without a reason', () => {
    expect(() => Acknowledgements.format([{ rule: 'NA-PROBES', reason: '' }])).toThrow('acknowledgement of NA-PROBES has no reason: say in one line why the finding is accepted');
    expect(() => Acknowledgements.format([{ rule: ' ', reason: 'r' }])).toThrow(/acknowledgement must name a rule/);
  });
});

describe('Acknowledgements.parse reads each annotation text once', () => {
  const annotations = { [KEY]: JSON.stringify([{ rule: 'NA-PRIORITY-CLASS', reason: 'no priority classes yet' }]) };

  test('a second parse of the same text gives the same acknowledgements, in a list of its own', () => {
    const first = Acknowledgements.parse(annotations);
    first.push({ rule: 'NA-RESOURCES', reason: 'added by the caller' });
    expect(Acknowledgements.parse(annotations)).toEqual([{ rule: 'NA-PRIORITY-CLASS', reason: 'no priority classes yet' }]);
  });

  test('an annotation that fails fails every time, with the same message', () => {
    const bad = { [KEY]: '[{"rule": "NA-PRIORITY-CLASS"}]' };
    expect(() => Acknowledgements.parse(bad)).toThrow(/has no reason/);
    expect(() => Acknowledgements.parse(bad)).toThrow(/has no reason/);
  });
});
