import { containersOf } from '../_workload';
import { IReviewRule, RuleViolation, WorkloadContext } from '../review-rule';
import { Severity } from '../severity';

/** names of variables that hold a credential: the word as one part of the name, `DB_PASSWORD`, `API_KEY`. */
const SECRET_NAME = /(^|_)(PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API_?KEY|APIKEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)($|_)/i;
/** names that say where a credential is, or which one: not the credential itself. */
const NOT_THE_SECRET = /(_(FILE|PATH|DIR|NAME|ID|URL|URI|REF|KEY_ID|TYPE|ENABLED|HEADER))$/i;
/**
 * values that are not the credential, whatever the variable's name: an absolute path (`GOOGLE_APPLICATION_CREDENTIALS` names
 * the key file) or only references to other variables, `$(DB_PASSWORD)`, which the kubelet expands from the container's
 * other env entries (the credential, if any, is in those: they are checked themselves).
 */
const NOT_A_LITERAL = /^(\/\S*|(\$\([A-Za-z_][A-Za-z0-9_.-]*\))+)$/;
/** a switch, not a credential, whatever the variable's name: `ENABLE_BASIC_AUTH: "true"`, `TOKEN_REVIEW: off`. */
const SWITCH = /^(true|false|yes|no|on|off|enabled?|disabled?|0|1)$/i;
/** values that are credentials whatever their variable's name: key material, cloud access keys. */
const SECRET_VALUE = /-----BEGIN [A-Z ]*PRIVATE KEY-----|\b(AKIA|ASIA)[0-9A-Z]{16}\b|\bghp_[A-Za-z0-9]{36}\b|\bxox[abp]-[A-Za-z0-9-]+/;

/**
 * `NA-ENV-SECRET`: no credential is written into the manifest as a literal environment value: a variable named like a
 * credential (`PASSWORD`, `SECRET`, `TOKEN`, `API_KEY`, ... as a part of the name; not `..._FILE`, `..._PATH`,
 * `..._NAME`) with a non-empty literal `value` (not an absolute path, not only `$(VAR)` references to other variables, not a
 * switch such as `true` or `off`), or
 * any value that is key material or a cloud access key. The value is never printed.
 */
export class EnvSecretRule implements IReviewRule {
  public readonly id = 'NA-ENV-SECRET';
  public readonly severity = Severity.HIGH;
  public readonly title = 'No credential is written into the manifest';
  public readonly explanation = 'A literal env value is part of the DaemonSet and of every pod: whoever can read them (get on daemonsets ' +
    'or pods, the Git repository, the CI logs) reads the credential, and rotating it means a new rollout. Key material and cloud access ' +
    'keys are high; other variables named like credentials are medium (the value may be a placeholder, but a placeholder that works is ' +
    'a shared default password).';
  public readonly fix = 'put the value in a Secret and read it from the Secret\'s key, which is the right way to give a container a credential: ' +
    'valueFrom.secretKeyRef (on a NodeAgent or preset: envValueFrom: { NAME: EnvValue.fromSecretKey(\'secret\', \'key\') }), or mount ' +
    'the Secret as files (volumes: [AgentVolume.fromSecret(\'secret\', \'/etc/credentials\')])';

  public evaluate(workload: WorkloadContext): RuleViolation[] {
    const violations: RuleViolation[] = [];
    for (const c of containersOf(workload)) {
      const env = Array.isArray(c.container.env) ? c.container.env : [];
      env.forEach((e: any, i: number) => {
        if (!e || typeof e.value !== 'string' || e.value.trim() === '') return;
        const name = String(e.name ?? '');
        const field = `${c.path}.env[${i}].value`;
        if (SECRET_VALUE.test(e.value)) {
          violations.push({ message: `sets ${name} to a literal value that is key material or an access key`, container: c.name, field });
        } else if (SECRET_NAME.test(name) && !NOT_THE_SECRET.test(name) && !NOT_A_LITERAL.test(e.value.trim()) && !SWITCH.test(e.value.trim())) {
          violations.push({ message: `sets ${name}, named like a credential, to a literal value in the manifest`, container: c.name, field, severity: Severity.MEDIUM });
        }
      });
    }
    return violations;
  }
}
