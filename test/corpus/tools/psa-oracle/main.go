// psaoracle (test/corpus/tools/psa-oracle) prints, for every pod template in the given manifests, the Pod Security level it meets and the
// check IDs that fail at the next stricter level, using Kubernetes' own pod-security-admission checks.
package main

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
	"sigs.k8s.io/yaml"
)

type obj struct {
	Kind     string            `json:"kind"`
	Metadata metav1.ObjectMeta `json:"metadata"`
	Items    []obj             `json:"items"`
	Spec     struct {
		Template corev1.PodTemplateSpec `json:"template"`
	} `json:"spec"`
}

func failing(checks []policy.Check, level api.Level, v api.Version, md *metav1.ObjectMeta, spec *corev1.PodSpec) []string {
	// pick, per check, the version entry in force at v; drop checks overridden at this level
	type active struct {
		id string
		fn policy.CheckPodFn
	}
	var act []active
	overridden := map[policy.CheckID]bool{}
	for _, c := range checks {
		if level == api.LevelBaseline && c.Level != api.LevelBaseline {
			continue
		}
		var vc *policy.VersionedCheck
		for i := range c.Versions {
			if !v.Older(c.Versions[i].MinimumVersion) {
				vc = &c.Versions[i]
			}
		}
		if vc == nil {
			continue
		}
		for _, o := range vc.OverrideCheckIDs {
			overridden[o] = true
		}
		act = append(act, active{string(c.ID), vc.CheckPod})
	}
	var out []string
	for _, a := range act {
		if overridden[policy.CheckID(a.id)] {
			continue
		}
		if r := a.fn(md, spec); !r.Allowed {
			out = append(out, a.id)
		}
	}
	sort.Strings(out)
	return out
}

func report(file string, o obj, v api.Version) {
	if o.Kind == "List" {
		for _, it := range o.Items {
			report(file, it, v)
		}
		return
	}
	switch o.Kind {
	case "DaemonSet", "Deployment", "StatefulSet", "ReplicaSet", "Job":
	default:
		return
	}
	checks := policy.DefaultChecks()
	md := &o.Spec.Template.ObjectMeta
	spec := &o.Spec.Template.Spec
	b := failing(checks, api.LevelBaseline, v, md, spec)
	r := failing(checks, api.LevelRestricted, v, md, spec)
	level, viol := "restricted", []string{}
	if len(b) > 0 {
		level, viol = "privileged", b
	} else if len(r) > 0 {
		level, viol = "baseline", r
	}
	fmt.Printf("%s\t%s/%s/%s\t%s\t%s\n", file, o.Kind, o.Metadata.Namespace, o.Metadata.Name, level, strings.Join(viol, ","))
}

func main() {
	ver := api.LatestVersion()
	args := os.Args[1:]
	if len(args) > 1 && args[0] == "-v" {
		var err error
		ver, err = api.ParseVersion(args[1])
		if err != nil {
			panic(err)
		}
		args = args[2:]
	}
	for _, f := range args {
		data, err := os.ReadFile(f)
		if err != nil {
			panic(err)
		}
		for _, doc := range bytes.Split(append([]byte("\n"), data...), []byte("\n---")) {
			var o obj
			if err := yaml.Unmarshal(doc, &o); err != nil {
				fmt.Fprintf(os.Stderr, "%s: %v\n", f, err)
				continue
			}
			report(f, o, ver)
		}
	}
}
