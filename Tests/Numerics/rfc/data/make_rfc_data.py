#!/usr/bin/env python3
"""Write the small rolling friction problems of this directory (pure Python, no numpy).

Spheres (3D) or disks (2D) resting on the ground z = 0 and on each other; one
time step h of gravity on top of a given velocity gives the free velocity. Per
contact between A (the ground or a body) and B, normal n from A to B, tangents
t1, t2 and contact point c, the unknowns are (normal, t1, t2, rolling about t1,
rolling about t2) in 3D and (normal, tangent, rolling) in 2D:
  u = [n t1 t2] . (v_B + w_B x (c - x_B) - v_A - w_A x (c - x_A)),
  u_R = [t1 t2] . (w_B - w_A)          (3D; in 2D u_R = w_B - w_A).
W = J M^-1 J^T as a sparse-block matrix (a block where two contacts share a
body), q = J v_free. Files in the Siconos rolling .dat layout (doc/formats.md).

    python3 make_rfc_data.py [output directory]
"""
import math
import sys

H = 0.01  # time step
G = 9.81  # gravity


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def unit(a):
    n = math.sqrt(dot(a, a))
    return [x / n for x in a]


def tangents(n):
    # the axis least aligned with n, then two orthonormal tangents
    axis = min(range(3), key=lambda k: abs(n[k]))
    e = [0.0, 0.0, 0.0]
    e[axis] = 1.0
    t1 = unit(cross(n, e))
    return t1, cross(n, t1)


class Body:
    def __init__(self, x, radius, v, w, density=1000.0, dim=3):
        self.x, self.radius, self.v, self.w = x, radius, v, w
        if dim == 3:
            self.mass = density * 4.0 / 3.0 * math.pi * radius**3
            self.inertia = 0.4 * self.mass * radius**2
        else:  # a disk of unit thickness
            self.mass = density * math.pi * radius**2
            self.inertia = 0.5 * self.mass * radius**2


def contacts3(bodies, eps=1e-9):
    """[(A index or None, B index, n, c)] of touching pairs."""
    out = []
    for b, B in enumerate(bodies):
        if B.x[2] - B.radius < eps:
            out.append((None, b, [0.0, 0.0, 1.0], [B.x[0], B.x[1], 0.0]))
    for a, A in enumerate(bodies):
        for b in range(a + 1, len(bodies)):
            B = bodies[b]
            d = [B.x[k] - A.x[k] for k in range(3)]
            if math.sqrt(dot(d, d)) < A.radius + B.radius + eps:
                n = unit(d)
                out.append((a, b, n, [A.x[k] + A.radius * n[k] for k in range(3)]))
    return out


def jacobian3(bodies, contacts):
    """Per contact: {body: 5 rows of 6 (v then w)}."""
    rows = []
    for a, b, n, c in contacts:
        t1, t2 = tangents(n)
        J = {}
        for body, sign in ((a, -1.0), (b, 1.0)):
            if body is None:
                continue
            r = [c[k] - bodies[body].x[k] for k in range(3)]
            block = []
            for e in (n, t1, t2):
                block.append([sign * x for x in e] + [sign * x for x in cross(r, e)])
            for e in (t1, t2):
                block.append([0.0, 0.0, 0.0] + [sign * x for x in e])
            J[body] = block
        rows.append(J)
    return rows


def contacts2(bodies, eps=1e-9):
    out = []
    for b, B in enumerate(bodies):
        if B.x[1] - B.radius < eps:
            out.append((None, b, [0.0, 1.0], [B.x[0], 0.0]))
    for a, A in enumerate(bodies):
        for b in range(a + 1, len(bodies)):
            B = bodies[b]
            d = [B.x[k] - A.x[k] for k in range(2)]
            if math.hypot(*d) < A.radius + B.radius + eps:
                n = [x / math.hypot(*d) for x in d]
                out.append((a, b, n, [A.x[k] + A.radius * n[k] for k in range(2)]))
    return out


def jacobian2(bodies, contacts):
    """Per contact: {body: 3 rows of 3 (vx, vz, w)}; w x r = w (-r_z, r_x)."""
    rows = []
    for a, b, n, c in contacts:
        t = [-n[1], n[0]]
        J = {}
        for body, sign in ((a, -1.0), (b, 1.0)):
            if body is None:
                continue
            r = [c[k] - bodies[body].x[k] for k in range(2)]
            block = []
            for e in (n, t):
                block.append([sign * e[0], sign * e[1], sign * (-r[1] * e[0] + r[0] * e[1])])
            block.append([0.0, 0.0, sign])
            J[body] = block
        rows.append(J)
    return rows


def assemble(bodies, J, dim, minv_of, vfree_of):
    nc = len(J)
    blocks = {}
    for i in range(nc):
        for j in range(nc):
            shared = set(J[i]) & set(J[j])
            if not shared:
                continue
            blk = [[0.0] * dim for _ in range(dim)]
            for body in shared:
                minv = minv_of(bodies[body])
                Ji, Jj = J[i][body], J[j][body]
                for p in range(dim):
                    for s in range(dim):
                        blk[p][s] += sum(Ji[p][k] * minv[k] * Jj[s][k] for k in range(len(minv)))
            blocks[(i, j)] = blk
    q = []
    for i in range(nc):
        for p in range(dim):
            q.append(sum(sum(J[i][body][p][k] * vfree_of(bodies[body])[k]
                             for k in range(len(J[i][body][p]))) for body in J[i]))
    return blocks, q


def write(path, dim, nc, blocks, q, mu, mu_r):
    m = dim * nc
    keys = sorted(blocks)
    with open(path, "w") as f:
        f.write("%d\n%d\n" % (dim, nc))
        f.write("1\n%d\n%d\n%d\n%d\n%d\n" % (m, m, len(keys), nc, nc))
        ends = "".join("%d\t" % (dim * (a + 1)) for a in range(nc)) + "\n"
        f.write(ends + ends)
        f.write("%d\n%d\n" % (nc + 1, len(keys)))
        row_ptr = [0]
        for a in range(nc):
            row_ptr.append(row_ptr[-1] + sum(1 for k in keys if k[0] == a))
        f.write("".join("%d\t" % x for x in row_ptr) + "\n")
        f.write("".join("%d\t" % k[1] for k in keys) + "\n")
        for index, key in enumerate(keys):
            blk = blocks[key]
            f.write("%d\n" % index)
            for s in range(dim):  # column-major
                for p in range(dim):
                    f.write(repr(blk[p][s]) + "\n")
        f.write(" ".join(repr(x) for x in q) + "\n")
        f.write(" ".join(repr(x) for x in mu) + "\n")
        f.write(" ".join(repr(x) for x in mu_r) + "\n")


def spheres(path, bodies, mu, mu_r):
    C = contacts3(bodies)
    J = jacobian3(bodies, C)

    def minv(b):
        return [1.0 / b.mass] * 3 + [1.0 / b.inertia] * 3

    def vfree(b):
        return [b.v[0], b.v[1], b.v[2] - H * G] + list(b.w)

    blocks, q = assemble(bodies, J, 5, minv, vfree)
    write(path, 5, len(C), blocks, q, [mu] * len(C), [mu_r] * len(C))
    return len(C)


def disks(path, bodies, mu, mu_r):
    C = contacts2(bodies)
    J = jacobian2(bodies, C)

    def minv(b):
        return [1.0 / b.mass] * 2 + [1.0 / b.inertia]

    def vfree(b):
        return [b.v[0], b.v[1] - H * G, b.w]

    blocks, q = assemble(bodies, J, 3, minv, vfree)
    write(path, 3, len(C), blocks, q, [mu] * len(C), [mu_r] * len(C))
    return len(C)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    R = 0.1
    # a pile: 2 x 2 spheres on the ground, one on top (12 contacts), settling
    z_top = R + math.sqrt(4 * R * R - 2 * R * R)
    pile = [Body([sx * R, sy * R, R], R, [0.02 * sx, -0.01 * sy, -0.05], [0.3 * sy, -0.2 * sx, 0.1])
            for sx in (-1, 1) for sy in (-1, 1)]
    pile.append(Body([0.0, 0.0, z_top], R, [0.05, 0.0, -0.3], [0.0, 2.0, 0.0]))
    print(spheres(out + "/rfc3d_sphere_pile_12.dat", pile, 0.5, 0.05))
    # three spheres in a row on the ground, thrown rolling (5 contacts): some roll, some stick
    row = [Body([2 * R * k, 0.0, R], R, [1.0 - 0.4 * k, 0.0, -0.1], [0.0, 8.0 - 6.0 * k, 0.5 * k])
           for k in range(3)]
    print(spheres(out + "/rfc3d_spheres_rolling_5.dat", row, 0.4, 0.02))
    # 2D: two disks on the ground, one on top (5 contacts)
    z2 = R + math.sqrt(4 * R * R - R * R)
    stack = [Body([-R, R], R, [0.1, -0.05], 1.0, dim=2), Body([R, R], R, [-0.2, 0.0], -3.0, dim=2),
             Body([0.0, z2], R, [0.3, -0.5], 4.0, dim=2)]
    print(disks(out + "/rfc2d_disks_5.dat", stack, 0.3, 0.03))


if __name__ == "__main__":
    main()
