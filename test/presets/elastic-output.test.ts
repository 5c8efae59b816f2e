import { parse } from 'yaml';
import { ElasticOutput, EnvValue, Filebeat } from '../../src';

const secret = (key: string) => EnvValue.fromSecretKey('elasticsearch-credentials', key);
const outputOf = (o: ElasticOutput) => {
  const config = parse(Filebeat.renderConfig(o));
  return Object.fromEntries(Object.entries(config).filter(([k]) => k.startsWith('output.')));
};

describe('ElasticOutput', () => {
  test('elasticsearch with a user name and password: the section reads them from variables', () => {
    const o = ElasticOutput.elasticsearch(['https://es-0.logging.svc:9200', 'https://es-1.logging.svc:9200'], { username: secret('username'), password: secret('password') });
    expect(o.kind).toEqual('elasticsearch');
    expect(o.hosts).toEqual(['https://es-0.logging.svc:9200', 'https://es-1.logging.svc:9200']);
    expect(outputOf(o)).toEqual({
      'output.elasticsearch': {
        hosts: ['https://es-0.logging.svc:9200', 'https://es-1.logging.svc:9200'],
        username: '${ELASTICSEARCH_USERNAME}',
        password: '${ELASTICSEARCH_PASSWORD}',
      },
    });
  });

  test('elasticsearch with an API key and a CA', () => {
    const o = ElasticOutput.elasticsearch(['https://es.logging.svc:9200'], { apiKey: secret('api-key'), certificateAuthorities: ['/etc/elasticsearch-ca/ca.crt'] });
    expect(outputOf(o)).toEqual({
      'output.elasticsearch': { 'hosts': ['https://es.logging.svc:9200'], 'api_key': '${ELASTICSEARCH_API_KEY}', 'ssl.certificate_authorities': ['/etc/elasticsearch-ca/ca.crt'] },
    });
  });

  test('elasticsearch without credentials', () => {
    expect(outputOf(ElasticOutput.elasticsearch(['elasticsearch:9200']))).toEqual({ 'output.elasticsearch': { hosts: ['elasticsearch:9200'] } });
  });

  test('a user name from a ConfigMap is accepted; a password or API key from a ConfigMap is refused, pointing at a Secret', () => {
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { username: EnvValue.fromConfigMapKey('es', 'username'), password: secret('password') })).not.toThrow();
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { username: secret('username'), password: EnvValue.fromConfigMapKey('es', 'password') })).toThrow(
      "ElasticOutput.elasticsearch: the password comes from the ConfigMap es; a credential belongs in a Secret: EnvValue.fromSecretKey('es', 'password')");
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { apiKey: EnvValue.fromConfigMapKey('es', 'key') })).toThrow(/the apiKey comes from the ConfigMap es/);
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { apiKey: EnvValue.fromPodField('metadata.name') })).toThrow(
      "ElasticOutput.elasticsearch: the apiKey comes from the pod field metadata.name; a credential belongs in a Secret: EnvValue.fromSecretKey('<secret>', '<key>')");
  });

  test('credentials are never literals, never half given, never both kinds', () => {
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { password: 'changeme' as any, username: secret('username') })).toThrow(/password/);
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { password: secret('password') })).toThrow(
      'ElasticOutput.elasticsearch: give username and password together (basic authentication needs both), got only the password');
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { username: secret('u'), password: secret('p'), apiKey: secret('k') })).toThrow(/either an apiKey or a username and password/);
    expect(() => ElasticOutput.elasticsearch(['https://elastic:changeme@es:9200'])).toThrow(
      'ElasticOutput.elasticsearch: host "https://***@es:9200" carries credentials: give them from a Secret with the username and password (or apiKey) options, never in the address');
    expect(() => ElasticOutput.elasticsearch(['es:9200'], { unknown: 1 } as any)).toThrow(/unknown/);
  });

  test('hosts must be a non-empty list of addresses', () => {
    expect(() => ElasticOutput.elasticsearch([])).toThrow("ElasticOutput.elasticsearch: hosts must be a non-empty list of addresses, e.g. ['https://elasticsearch.logging.svc:9200'], got []");
    expect(() => ElasticOutput.elasticsearch(['es 9200'])).toThrow(/host "es 9200" is not an address/);
    expect(() => ElasticOutput.elasticsearch(['https://es:9200'], { certificateAuthorities: ['ca.crt'] })).toThrow(/"ca.crt" must be an absolute path/);
  });

  test('logstash takes host:port, not URLs', () => {
    expect(outputOf(ElasticOutput.logstash(['logstash:5044']))).toEqual({ 'output.logstash': { hosts: ['logstash:5044'] } });
    expect(() => ElasticOutput.logstash(['http://logstash:5044'])).toThrow('ElasticOutput.logstash: "http://logstash:5044" is a URL; the Beats protocol takes host:port, e.g. "logstash:5044"');
  });

  test('console writes JSON lines', () => {
    const o = ElasticOutput.console();
    expect([o.kind, o.hosts]).toEqual(['console', []]);
    expect(outputOf(o)).toEqual({ 'output.console': { codec: { json: { pretty: false } } } });
  });
});
