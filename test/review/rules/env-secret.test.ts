import { EnvSecretRule, Severity } from '../../../src/review';
import { agent, findingsOf, goodContainer } from '../util';

const rule = new EnvSecretRule();
const withEnv = (...env: any[]) => agent({ containers: [goodContainer({ env })] });

describe('NA-ENV-SECRET: No credential is written into the manifest', () => {
  test('Noncompliance: a variable named like a credential with a literal value (Auditbeat\'s ELASTICSEARCH_PASSWORD: changeme); the value is never printed', () => {
    const findings = findingsOf(rule, [withEnv({ name: 'ELASTICSEARCH_PASSWORD', value: 'changeme' }, { name: 'api_key', value: 'abc' }, { name: 'GITHUB_TOKEN', value: 't' })]);
    expect(findings.map((f) => [f.severity, f.field])).toEqual([
      [Severity.MEDIUM, 'spec.template.spec.containers[0].env[0].value'],
      [Severity.MEDIUM, 'spec.template.spec.containers[0].env[1].value'],
      [Severity.MEDIUM, 'spec.template.spec.containers[0].env[2].value'],
    ]);
    expect(findings[0].message).toContain('sets ELASTICSEARCH_PASSWORD, named like a credential, to a literal value in the manifest');
    for (const f of findings) expect(f.message).not.toMatch(/changeme|abc/);
  });

  test('Noncompliance: key material or a cloud access key, whatever the name, is high', () => {
    const findings = findingsOf(rule, [withEnv(
      { name: 'CONFIG', value: '-----BEGIN RSA PRIVATE KEY-----\nMIIE...' },
      { name: 'X', value: 'AKIAABCDEFGHIJKLMNOP' },
    )]);
    expect(findings.map((f) => f.severity)).toEqual([Severity.HIGH, Severity.HIGH]);
    expect(findings[0].message).toContain('sets CONFIG to a literal value that is key material or an access key');
  });

  test('Compliance: references to Secrets, names that say where or which (…_FILE, …_PATH, …_NAME, …_KEY_ID), empty values, unrelated names', () => {
    expect(findingsOf(rule, [withEnv(
      { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 's', key: 'p' } } },
      { name: 'TOKEN_FILE', value: '/var/run/secrets/token' },
      { name: 'SECRET_NAME', value: 'agent-credentials' },
      { name: 'AWS_ACCESS_KEY_ID', value: 'AKIA-not-a-key' },
      { name: 'PASSWORD', value: '' },
      { name: 'TOKENIZER', value: 'simple' },
      { name: 'NODE_NAME', value: 'x' },
    )])).toEqual([]);
  });

  test('Compliance: a path to the credential (GOOGLE_APPLICATION_CREDENTIALS) and references to other variables, $(VAR), are not the credential', () => {
    expect(findingsOf(rule, [withEnv(
      { name: 'GOOGLE_APPLICATION_CREDENTIALS', value: '/var/secrets/google/key.json' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 's', key: 'p' } } },
      { name: 'PASSWORD', value: '$(DB_PASSWORD)' },
      { name: 'AUTH', value: ' $(USER)$(DB_PASSWORD) ' },
    )])).toEqual([]);
    // a literal around a reference, or a relative path, is still a literal in the manifest
    const findings = findingsOf(rule, [withEnv({ name: 'PASSWORD', value: 'pre-$(X)' }, { name: 'TOKEN', value: 'secrets/token' })]);
    expect(findings.map((f) => f.severity)).toEqual([Severity.MEDIUM, Severity.MEDIUM]);
  });

  test('Compliance: a switch named like a credential (ENABLE_BASIC_AUTH: "true") is no credential; a value that is one still is', () => {
    expect(findingsOf(rule, [withEnv(
      { name: 'ENABLE_BASIC_AUTH', value: 'true' },
      { name: 'TOKEN_REVIEW', value: 'Off' },
      { name: 'AUTH', value: 'disabled' },
      { name: 'USE_SECRET', value: '0' },
    )])).toEqual([]);
    expect(findingsOf(rule, [withEnv({ name: 'ENABLE_BASIC_AUTH', value: 'admin:hunter2' })]).map((f) => f.severity)).toEqual([Severity.MEDIUM]);
  });
});
