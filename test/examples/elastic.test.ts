import { Testing } from 'cdk8s';
import { parse } from 'yaml';
import { buildElasticApp } from '../../examples/elastic/main';
import { Auditbeat, Filebeat, HostAccessReasons } from '../../src';
import { synthValid } from '../util/k8s-schema';

/**
 * The elastic example: Filebeat and Auditbeat shipping to an Elasticsearch that requires authentication, the
 * credentials from Secret keys and the CA from a Secret volume, no literal credential in the manifests.
 */

function manifests(): any[] {
  const app = Testing.app();
  buildElasticApp(app);
  expect(app.charts.map((c) => c.node.id)).toEqual(['elastic']);
  return synthValid(app.charts[0]);
}

const all = manifests();
const daemonSet = (name: string) => all.find((m) => m.kind === 'DaemonSet' && m.metadata.name === name);
const main = (name: string) => daemonSet(name).spec.template.spec.containers[0];
const config = (name: string) => parse(all.find((m) => m.kind === 'ConfigMap' && m.metadata.name === `${name}-config`).data[`${name}.yml`]);

test('Filebeat and Auditbeat, the presets\' pinned images, in one Pod Security-labelled namespace', () => {
  expect(all.filter((m) => m.kind === 'DaemonSet').map((d) => `${d.metadata.namespace}/${d.metadata.name}`)).toEqual(['elastic/filebeat', 'elastic/auditbeat']);
  expect([main('filebeat').image, main('auditbeat').image]).toEqual([Filebeat.DEFAULT_IMAGE, Auditbeat.DEFAULT_IMAGE]);
  expect(all.filter((m) => m.kind === 'Namespace').map((n) => n.metadata.name)).toEqual(['elastic']);
});

test('Filebeat authenticates with the user name and password of a Secret, read through the environment', () => {
  expect(config('filebeat')['output.elasticsearch']).toEqual({
    'hosts': ['https://elasticsearch-es-http.elastic.svc:9200'],
    'username': '${ELASTICSEARCH_USERNAME}',
    'password': '${ELASTICSEARCH_PASSWORD}',
    'ssl.certificate_authorities': ['/etc/elasticsearch-ca/ca.crt'],
  });
  expect(main('filebeat').env.filter((e: any) => e.name.startsWith('ELASTICSEARCH_'))).toEqual([
    { name: 'ELASTICSEARCH_USERNAME', valueFrom: { secretKeyRef: { name: 'elasticsearch-credentials', key: 'username' } } },
    { name: 'ELASTICSEARCH_PASSWORD', valueFrom: { secretKeyRef: { name: 'elasticsearch-credentials', key: 'password' } } },
  ]);
});

test('Auditbeat authenticates with an API key from a Secret', () => {
  expect(config('auditbeat')['output.elasticsearch'].api_key).toEqual('${ELASTICSEARCH_API_KEY}');
  expect(main('auditbeat').env).toContainEqual({ name: 'ELASTICSEARCH_API_KEY', valueFrom: { secretKeyRef: { name: 'elasticsearch-api-key', key: 'api-key' } } });
});

test('the CA comes from a Secret, mounted read-only where the configuration reads it', () => {
  for (const name of ['filebeat', 'auditbeat']) {
    const spec = daemonSet(name).spec.template.spec;
    const volume = spec.volumes.find((v: any) => v.secret?.secretName === 'elasticsearch-ca');
    expect(volume.secret.items).toEqual([{ key: 'ca.crt', path: 'ca.crt' }]);
    expect(main(name).volumeMounts).toContainEqual({ name: volume.name, mountPath: '/etc/elasticsearch-ca', readOnly: true });
  }
});

test('no credential in the manifests, and every host privilege with its reason', () => {
  const text = JSON.stringify(all);
  expect(text).not.toMatch(/changeme|"ELASTICSEARCH_PASSWORD","value"/);
  for (const name of ['filebeat', 'auditbeat']) {
    expect(main(name).env.every((e: any) => e.value === undefined)).toBe(true);
    expect(HostAccessReasons.parse(daemonSet(name).metadata.annotations).length).toBeGreaterThan(0);
  }
});
