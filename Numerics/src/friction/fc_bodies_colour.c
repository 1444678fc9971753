/*
 * Greedy colouring of a rigid-contact problem's contacts by their dynamic bodies
 * (fc_bodies_colour.h), for the threaded sweeps of nsd_fc3d_nsgs_bodies.
 *
 * One pass per stage in problem order: a body keeps the mask of the colours its
 * contacts took so far; a contact takes the lowest colour free on both its bodies.
 * Then a stable counting sort by colour. O(contacts + bodies), no allocation per
 * stage.
 */
#include "friction/fc_bodies_colour.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_bodies.h"

/* The lowest clear bit of @p used (not all ones). */
static int lowest_free(uint64_t used) {
#if defined(__GNUC__)
  return __builtin_ctzll(~used);
#else
  int k = 0;
  while (used & ((uint64_t)1 << k)) ++k;
  return k;
#endif
}

void nsd_rb_colouring_free(NsdRbColouring* c) {
  if (!c) return;
  free(c->order);
  free(c->run_end);
  free(c->stage_run);
  free(c->run_serial);
  free(c->block_end);
  memset(c, 0, sizeof *c);
}

int nsd_rb_colour(const NsdRigidContacts* p, NsdRbColouring* c) {
  memset(c, 0, sizeof *c);
  const int nc = p->n_contacts, nb = p->n_bodies;
  const int stages = p->n_stages > 1 ? p->n_stages : 1;
  const size_t nc1 = (size_t)(nc > 0 ? nc : 1), nb1 = (size_t)(nb > 0 ? nb : 1);
  c->n_contacts = nc;
  c->n_stages = stages;
  c->order = malloc(nc1 * sizeof *c->order);
  c->run_end = malloc((size_t)stages * NSD_RB_RUNS * sizeof *c->run_end);
  c->stage_run = malloc(((size_t)stages + 1) * sizeof *c->stage_run);
  c->run_serial = malloc((size_t)stages * NSD_RB_RUNS * sizeof *c->run_serial);
  uint64_t* mask = calloc(nb1, sizeof *mask);
  unsigned char* colour = malloc(nc1 * sizeof *colour);
  if (!c->order || !c->run_end || !c->stage_run || !c->run_serial || !mask || !colour) {
    free(mask);
    free(colour);
    nsd_rb_colouring_free(c);
    return 0;
  }
  int run = 0, pos = 0;
  c->stage_run[0] = 0;
  for (int s = 0; s < stages; ++s) {
    const int begin = s > 0 ? p->stage_end[s - 1] : 0;
    const int end = stages > 1 ? p->stage_end[s] : nc;
    int count[NSD_RB_RUNS] = {0};
    // the lowest colour free on both bodies; none free: the sequential run
    for (int a = begin; a < end; ++a) {
      const size_t e = nsd_rb_entry(p, a);
      const int A = nsd_rb_side(p, p->body_a, e), B = nsd_rb_side(p, p->body_b, e);
      const uint64_t used = (A >= 0 ? mask[A] : 0) | (B >= 0 ? mask[B] : 0);
      int k = NSD_RB_COLOURS;
      if (used != ~(uint64_t)0) {
        k = lowest_free(used);
        const uint64_t bit = (uint64_t)1 << k;
        if (A >= 0) mask[A] |= bit;
        if (B >= 0) mask[B] |= bit;
      }
      colour[a] = (unsigned char)k;
      ++count[k];
    }
    for (int a = begin; a < end; ++a) {
      const size_t e = nsd_rb_entry(p, a);
      const int A = nsd_rb_side(p, p->body_a, e), B = nsd_rb_side(p, p->body_b, e);
      if (A >= 0) mask[A] = 0;
      if (B >= 0) mask[B] = 0;
    }
    // the runs: the colours in turn, the sequential run last; problem order within each
    int start[NSD_RB_RUNS], colours = 0;
    for (int k = 0; k < NSD_RB_RUNS; ++k) {
      start[k] = pos;
      if (count[k] == 0) continue;
      pos += count[k];
      c->run_end[run] = pos;
      c->run_serial[run] = k == NSD_RB_COLOURS;
      ++run;
      if (k < NSD_RB_COLOURS) ++colours;
    }
    c->serial += count[NSD_RB_COLOURS];
    if (colours > c->colours) c->colours = colours;
    for (int a = begin; a < end; ++a) c->order[start[colour[a]]++] = a;
    c->stage_run[s + 1] = run;
  }
  free(mask);
  free(colour);
  return 1;
}

int nsd_rb_blocks(const NsdRigidContacts* p, NsdRbColouring* c, int clash[3]) {
  memset(c, 0, sizeof *c);
  const int nc = p->n_contacts, nb = p->n_bodies, nk = p->n_blocks;
  const size_t nc1 = (size_t)(nc > 0 ? nc : 1), nb1 = (size_t)(nb > 0 ? nb : 1);
  // each moving body's block (-2: none yet) and the contact that gave it
  int* owner = malloc(2 * nb1 * sizeof *owner);
  c->order = malloc(nc1 * sizeof *c->order);
  c->block_end = malloc((size_t)nk * sizeof *c->block_end);
  c->run_end = malloc(2 * sizeof *c->run_end);
  c->stage_run = malloc(2 * sizeof *c->stage_run);
  c->run_serial = malloc(2 * sizeof *c->run_serial);
  if (!owner || !c->order || !c->block_end || !c->run_end || !c->stage_run || !c->run_serial) {
    free(owner);
    nsd_rb_colouring_free(c);
    return 0;
  }
  for (int b = 0; b < nb; ++b) owner[2 * b] = -2;
  for (int k = 0; k < nk; ++k) c->block_end[k] = 0;
  int serial = 0;
  for (int a = 0; a < nc; ++a) {
    const int k = p->sweep_block[a];
    if (k < 0) {
      ++serial;
      continue;
    }
    ++c->block_end[k];
    const size_t e = nsd_rb_entry(p, a);
    const int side[2] = {nsd_rb_side(p, p->body_a, e), nsd_rb_side(p, p->body_b, e)};
    for (int s = 0; s < 2; ++s) {
      const int b = side[s];
      if (b < 0) continue;
      if (owner[2 * b] == -2) {
        owner[2 * b] = k;
        owner[2 * b + 1] = a;
      } else if (owner[2 * b] != k) {
        clash[0] = owner[2 * b + 1];
        clash[1] = a;
        clash[2] = b;
        free(owner);
        nsd_rb_colouring_free(c);
        return -1;
      }
    }
  }
  free(owner);
  // the blocks' starts, then each contact at its place (problem order within a block)
  int start = 0;
  for (int k = 0; k < nk; ++k) {
    const int count = c->block_end[k];
    c->block_end[k] = start;
    start += count;
  }
  int rest = start;
  for (int a = 0; a < nc; ++a) {
    const int k = p->sweep_block[a];
    c->order[k < 0 ? rest++ : c->block_end[k]++] = a;
  }
  c->n_contacts = nc;
  c->n_stages = 1;
  c->n_blocks = nk;
  c->serial = serial;
  int runs = 0;
  if (start > 0) {
    c->run_end[runs] = start;
    c->run_serial[runs++] = NSD_RB_BLOCKS;
  }
  if (serial > 0) {
    c->run_end[runs] = nc;
    c->run_serial[runs++] = 1;
  }
  c->stage_run[0] = 0;
  c->stage_run[1] = runs;
  return 1;
}
