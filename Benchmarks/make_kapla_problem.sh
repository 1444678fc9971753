#!/usr/bin/env bash
# The Kapla tower FC3D problem of doc/benchmarks.md ("Kapla tower against Siconos 4.4"):
# Examples/KaplaTower/KaplaTower.xml with 16 layers of 3 planks (48 planks, per_layer 3),
# run for 50 steps with newton_ac; the FrictionContact problem of step 50 (552 contacts,
# rank-deficient W: 48 bodies, 288 velocities for 1,656 unknowns) written as FCLIB.
# The stored copy is Benchmarks/data/kapla_tower_552.hdf5 (FcAdmmTest::solvesKaplaTower).
#
# usage: Benchmarks/make_kapla_problem.sh [BUILD_DIR] [OUT.hdf5]    (from the repository root;
#        defaults: build, Benchmarks/data/kapla_tower_552.hdf5)
# exit status: 0 written, 2 nsdyn not built, 1 the run failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
out=${2:-$root/Benchmarks/data/kapla_tower_552.hdf5}
nsdyn=$build/bin/nsdyn
if [[ ! -x $nsdyn ]]; then
  echo "make_kapla_problem: $nsdyn not found; build first (cmake --build $build --target nsdyn)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the XML twin rewritten for 3 planks a layer, 50 steps and a short CSV
python3 - "$root/Examples/KaplaTower/KaplaTower.xml" "$work/kapla48.xml" <<'PY'
import sys
src = open(sys.argv[1]).read()
head = src[:src.index('      <RigidBody name="plank0"')]
head = head.replace('name="per_layer" value="2"', 'name="per_layer" value="3"')
head = head.replace('name="T" value="1"', 'name="T" value="0.05"')
bodies = []
for layer in range(16):
    for i in range(3):
        n = 3 * layer + i
        if layer % 2 == 0:
            pose = f'        <position>0 (-hl + hw + {i}*spacing) {2 * layer + 1}*ht</position>\n'
        else:
            pose = (f'        <position>(-hl + hw + {i}*spacing) 0 {2 * layer + 1}*ht</position>\n'
                    '        <quaternion>sqrt(0.5) 0 0 sqrt(0.5)</quaternion>\n')
        bodies.append(f'      <RigidBody name="plank{n}" density="450">\n{pose}'
                      '        <BoxShape half-extents="hl hw ht"/>\n      </RigidBody>\n')
tail = src[src.index('    </scene>'):]
start, end = tail.index('  <outputs>'), tail.index('  </outputs>') + len('  </outputs>\n')
tail = (tail[:start] + '  <outputs>\n    <output name="KaplaTower">\n'
        '      <column name="t" value="t"/>\n'
        '      <column name="contacts" value="scene.contacts"/>\n'
        '    </output>\n  </outputs>\n' + tail[end:])
open(sys.argv[2], 'w').write(head + ''.join(bodies) + tail)
PY
"$nsdyn" run "$work/kapla48.xml" --output "$work/run" --no-plot --quiet --dump-problems 50 >/dev/null
mkdir -p "$(dirname "$out")"
cp "$work/run/problem_000050.hdf5" "$out.tmp"
mv "$out.tmp" "$out"
echo "make_kapla_problem: wrote $out"
