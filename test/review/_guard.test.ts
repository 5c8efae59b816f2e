import { Duration } from 'cdk8s';
import { boolean, closest, guard, instance, isPlainObject, list, map, number, oneOf, received, Report, required, show, string, struct } from '../../src/review/_guard';
import { errorOf } from '../util/errors';

const report: Report = (message) => {
  throw new Error(message);
};


const PORT = struct('Port', { name: required(string("'metrics'"), 'name it'), port: number('80'), tls: boolean() }, { example: "{ name: 'metrics' }" });

describe('show and received', () => {
  test('JSON, shortened to 80 characters; what JSON cannot say, in words', () => {
    expect(show('a')).toBe('"a"');
    expect(show(undefined)).toBe('undefined');
    expect(show(10n)).toBe('10n');
    expect(show(Symbol('s'))).toBe('Symbol(s)');
    expect(show(() => 1)).toBe('a function');
    expect(show('x'.repeat(100))).toHaveLength(80);
    const cyclic: any = {};
    cyclic.self = cyclic;
    expect(show(cyclic)).toBe('[object Object]');
  });

  test('a class instance is named by its class', () => {
    expect(received(new Map())).toBe('a Map');
    expect(received(Duration.seconds(1))).toMatch(/^Duration \{/);
    expect(received({ a: 1 })).toBe('{"a":1}');
    expect(received([1])).toBe('[1]');
  });

  test('plain objects: literals and null-prototype objects, not arrays or instances', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new Map())).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject('x')).toBe(false);
  });
});

describe('closest', () => {
  test.each([
    ['tolerationz', 'tolerations'],
    ['hostMount', 'hostMounts'],
    ['failOnn', 'failOn'],
    ['NA-PRIORTY-CLASS', 'NA-PRIORITY-CLASS'],
    ['na_priority_class', 'NA-PRIORITY-CLASS'],
  ])('%s -> %s', (name, expected) => {
    expect(closest(name, ['tolerations', 'hostMounts', 'failOn', 'NA-PRIORITY-CLASS', 'NA-PROBES'])).toBe(expected);
  });

  test('nothing when no candidate is close', () => {
    expect(closest('image', ['tolerations', 'hostMounts'])).toBeUndefined();
    expect(closest('', ['ab'])).toBeUndefined();
  });
});

describe('guard', () => {
  test('undefined and null are "not set"; a required field fails with its fix', () => {
    expect(guard(report, 'x', undefined, string())).toBeUndefined();
    expect(guard(report, 'x', null, string())).toBeUndefined();
    expect(errorOf(() => guard(report, 'ports[0].name', undefined, required(string(), 'name it')))).toBe('ports[0].name is required: name it');
    expect(errorOf(() => guard(report, 'ports[0].name', null, required(string(), 'name it')))).toBe('ports[0].name is required, got null: name it');
  });

  test('primitives: the field, the expected type, the value received and the fix', () => {
    expect(errorOf(() => guard(report, 'namespace', 42, string("'observability'")))).toBe("namespace must be a string (e.g. 'observability'), got 42");
    expect(errorOf(() => guard(report, 'linuxOnly', 'false', boolean()))).toBe('linuxOnly must be true or false, got "false": write false without quotes');
    expect(errorOf(() => guard(report, 'fsGroup', '65534', number('1000')))).toBe('fsGroup must be a number (e.g. 1000), got "65534": write 65534 without quotes');
    expect(errorOf(() => guard(report, 'fsGroup', 'many', number()))).toBe('fsGroup must be a number, got "many"');
  });

  test('one of: the values, an example and the closest value', () => {
    const shape = oneOf(() => ({ CLUSTER_FIRST: 'ClusterFirst', DEFAULT: 'Default' }), 'DnsPolicy.DEFAULT');
    expect(guard(report, 'dnsPolicy', 'Default', shape)).toBe('Default');
    expect(errorOf(() => guard(report, 'dnsPolicy', 'clusterfirst', shape)))
      .toBe('dnsPolicy "clusterfirst" is not one of ClusterFirst, Default (e.g. DnsPolicy.DEFAULT): did you mean DnsPolicy.CLUSTER_FIRST?');
    expect(errorOf(() => guard(report, 'dnsPolicy', 1, shape))).toBe('dnsPolicy 1 is not one of ClusterFirst, Default (e.g. DnsPolicy.DEFAULT)');
  });

  test('instances: the predicate decides', () => {
    const shape = instance((v) => v instanceof Map, 'a Map', 'new Map()');
    const m = new Map();
    expect(guard(report, 'm', m, shape)).toBe(m);
    expect(errorOf(() => guard(report, 'm', {}, shape))).toBe('m must be a Map (e.g. new Map()), got {}');
  });

  test('lists: not a list, each item at its label or index, null items refused; a copy is returned', () => {
    const shape = list(PORT, 'a list of ports', "[{ name: 'metrics' }]", (p) => p?.name);
    const given = [{ name: 'a', port: 1 }, { name: 'b', port: null }];
    const checked = guard<any[]>(report, 'ports', given, shape);
    expect(checked).toEqual([{ name: 'a', port: 1 }, { name: 'b' }]);
    expect(checked).not.toBe(given);
    expect(errorOf(() => guard(report, 'ports', { name: 'a' }, shape)))
      .toBe("ports must be a list of ports (e.g. [{ name: 'metrics' }]), got {\"name\":\"a\"}: put it in a list (of one item)");
    expect(errorOf(() => guard(report, 'ports', [{ name: 'a', port: '80' }], shape))).toBe('ports[a].port must be a number (e.g. 80), got "80": write 80 without quotes');
    expect(errorOf(() => guard(report, 'ports', [{ port: 80 }], shape))).toBe('ports[0].name is required: name it');
    expect(errorOf(() => guard(report, 'ports', [null], shape))).toBe("ports[0] must be a Port object (e.g. { name: 'metrics' }), got null");
  });

  test('a string where a list belongs: the fix splits it into words', () => {
    const shape = list(string(), 'a list of strings', "['--verbose']");
    expect(errorOf(() => guard(report, 'command', '/bin/agent --verbose', shape)))
      .toBe('command must be a list of strings (e.g. [\'--verbose\']), got "/bin/agent --verbose": write one item per word, e.g. ["/bin/agent","--verbose"]');
    expect(errorOf(() => guard(report, 'args', '--verbose', shape))).toMatch(/got "--verbose": write a list, e\.g\. \["--verbose"\]$/);
  });

  test('maps: a plain object, each value at path.key, keys such as __proto__ kept as entries', () => {
    const shape = map(string(), 'a map of names to values', "{ a: 'b' }");
    const given = Object.fromEntries([['__proto__', 'x'], ['a', 'b']]);
    const checked = guard<any>(report, 'env', given, shape);
    expect(Object.keys(checked)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(checked)).toBe(Object.prototype);
    expect(errorOf(() => guard(report, 'labels', 'team=platform', shape))).toBe("labels must be a map of names to values (e.g. { a: 'b' }), got \"team=platform\"");
    expect(errorOf(() => guard(report, 'labels', { tier: 1 }, shape))).toBe('labels.tier must be a string, got 1');
    expect(errorOf(() => guard(report, 'labels', { tier: null }, shape))).toBe('labels.tier must be a string, got null');
    expect(errorOf(() => guard(report, 'labels', new Map([['a', 'b']]), shape))).toMatch(/got a Map$/);
  });

  test('structs: an unknown property fails with the closest known one, or with where to look', () => {
    expect(errorOf(() => guard(report, '', { nmae: 'a' }, PORT))).toBe('Port has no property "nmae": did you mean "name"?');
    expect(errorOf(() => guard(report, 'ports[0]', { name: 'a', colour: 'red' }, PORT)))
      .toBe('ports[0]: Port has no property "colour": remove it (the properties of Port are listed in API.md)');
    expect(errorOf(() => guard(report, '', 'x', PORT))).toBe("props must be a Port object (e.g. { name: 'metrics' }), got \"x\"");
    expect(errorOf(() => guard(report, 'port', [], PORT))).toBe("port must be a Port object (e.g. { name: 'metrics' }), got []");
  });
});
