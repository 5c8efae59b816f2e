// The README's Quick start agent, one preset and the app-wide security check, in Java: the same app as
// ../typescript/main.ts.
package com.example.consumer;

import java.util.List;
import java.util.Map;

import org.cdk8s.App;
import org.cdk8s.Chart;
import org.cdk8s.plus28.Capability;

import com.example.cdk8s.nodeagents.CapabilityGrant;
import com.example.cdk8s.nodeagents.HostMount;
import com.example.cdk8s.nodeagents.Justification;
import com.example.cdk8s.nodeagents.LogCollector;
import com.example.cdk8s.nodeagents.LogOutput;
import com.example.cdk8s.nodeagents.NodeAgent;
import com.example.cdk8s.nodeagents.ReadOnlyHostMountOptions;
import com.example.cdk8s.nodeagents.SecurityCheck;
import com.example.cdk8s.nodeagents.Toleration;

public final class Main {
    public static void main(final String[] args) {
        App app = new App();
        Chart chart = new Chart(app, "observability");

        NodeAgent.Builder.create(chart, "node-agent")
                .namespace("observability")
                .image("registry.example.com/node-agent:1.2.0")
                .tolerations(List.of(Toleration.controlPlane()))
                .capabilities(List.of(CapabilityGrant.builder()
                        .capability(Capability.NET_ADMIN)
                        .reason("manages the node network only")
                        .build()))
                .runAsRoot(Justification.builder()
                        .reason("NET_ADMIN takes effect only for root (Kubernetes sets no ambient capabilities); every other capability is dropped")
                        .build())
                .hostMounts(List.of(HostMount.readOnly("/var/log", ReadOnlyHostMountOptions.builder()
                        .reason("reads node and container logs")
                        .build())))
                .build();

        LogCollector.Builder.create(chart, "fluent-bit")
                .namespace("logging")
                .output(LogOutput.loki("http://loki-gateway.logging.svc"))
                .build();

        SecurityCheck.apply(app);
        app.synth();
    }
}
