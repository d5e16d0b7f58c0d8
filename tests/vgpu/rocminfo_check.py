#!/usr/bin/env python3
"""vgpu.rocminfo: Debian's unmodified rocminfo (ROCm 5.2) under LD_PRELOAD=libvgpu.so must list
the virtual gfx90a agent with the geometry vgpu/lib/Target.cpp declares (8 CUs x 4 SIMDs,
wave64, a 4 GiB coarse-grained global pool, the 64 KiB group segment) and ROCr's own ISA name.
The expected values are the virtual device's specification, not rocminfo output copied back.
With --gfx1100 (vgpu.rocminfo_gfx1100) the virtual GPU presents a gfx1100 node instead, and
rocminfo must list the CPU agent and no second agent: ROCr 5.2.3 drops a node whose gfx version
has no ISA registry entry (docs/notes/session7-vgpu.md)."""
import os, re, subprocess, sys

lib, rocminfo = sys.argv[1], sys.argv[2]
gfx1100 = "--gfx1100" in sys.argv[3:]
# A PTX2AMD_SANITIZE build (tests/CMakeLists.txt): libvgpu is instrumented, so its libasan
# comes first in rocminfo (uninstrumented).
asan = os.environ.get("PTX2AMD_TEST_PRELOAD", "")
env = dict(os.environ, LD_PRELOAD=(asan + ":" if asan else "") + lib, HSA_ENABLE_SDMA="0")
if gfx1100:
    env["VGPU_TARGET"] = "gfx1100"
p = subprocess.run([rocminfo], env=env, capture_output=True, text=True,
                   timeout=120 * float(os.environ.get("PTX2AMD_TEST_TIMEOUT_SCALE", "1")))
out = p.stdout
if gfx1100:
    # The node reaches ROCr (the thunk read it) but no GPU agent comes out of it.
    if p.returncode != 0 or not re.search(r"Agent 1\s*\n\*+\s*\n\s*Name:.*\n(?:.*\n)*?\s*Device Type:\s+CPU", out) \
            or re.search(r"^Agent 2", out, re.M) or "gfx1100" in out:
        sys.exit(f"rocminfo (exit {p.returncode}) should list only the CPU agent:\n{out}\n{p.stderr}")
    if "presenting a gfx1100 node" not in p.stderr:
        sys.exit("the virtual GPU did not present the gfx1100 node:\n" + p.stderr)
    # ROCr's own words (amd_gpu_agent.cpp: the GpuAgent constructor's HSA_STATUS_ERROR_INVALID_ISA,
    # printed by amd_topology.cpp DiscoverGpu before it drops the node).
    if "Agent creation failed.\nThe GPU node has an unrecognized id." not in p.stderr:
        sys.exit("ROCr did not report the agent creation failure:\n" + p.stderr)
    print("rocminfo lists only the CPU agent: ROCr 5.2.3 drops the gfx1100 node")
    sys.exit(0)
if p.returncode != 0:
    sys.exit(f"rocminfo exited {p.returncode}\n{out}\n{p.stderr}")
m = re.search(r"\*+\s*\nAgent 2\s*\n\*+\s*\n(.*?)\*\*\* Done \*\*\*", out, re.S)
if not m:
    sys.exit("no second (GPU) agent in rocminfo output:\n" + out)
agent = m.group(1)
checks = [
    (r"Name:\s+gfx90a\s*\n", "agent name gfx90a"),
    (r"Device Type:\s+GPU\s*\n", "device type GPU"),
    (r"Compute Unit:\s+8\s*\n", "8 compute units"),
    (r"SIMDs per CU:\s+4\s*\n", "4 SIMDs per CU"),
    (r"Wavefront Size:\s+64\(0x40\)", "wave size 64"),
    (r"Chip ID:\s+29711\(0x740f\)", "PCI device id 0x740f"),
    (r"Segment:\s+GLOBAL; FLAGS: COARSE GRAINED\s*\n\s*Size:\s+4194304\(0x400000\) KB", "4 GiB coarse-grained pool"),
    (r"Segment:\s+GROUP\s*\n\s*Size:\s+64\(0x40\) KB", "64 KiB group segment"),
    (r"Name:\s+amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack-", "ROCr's ISA gfx90a:sramecc-:xnack-"),
]
bad = [what for rx, what in checks if not re.search(rx, agent)]
# The only request the virtual GPU may refuse during rocminfo is the DKMS debugger interface.
unexpected = [l for l in p.stderr.splitlines() if l.startswith("vgpu:") and "DBG_TRAP" not in l]
if bad or unexpected:
    sys.exit("missing: " + ", ".join(bad) + "\nunexpected vgpu messages:\n" + "\n".join(unexpected) +
             "\n--- agent ---\n" + agent)
print("rocminfo lists the virtual gfx90a agent")
