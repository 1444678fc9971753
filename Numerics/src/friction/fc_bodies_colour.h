/**
 * @file fc_bodies_colour.h
 * @brief Private: the contacts of a rigid-contact problem (nsd_bodies.h) coloured by
 *        their bodies, so that the Gauss-Seidel of nsd_fc3d_nsgs_bodies can sweep the
 *        contacts of one colour on several threads at once. Not installed.
 *
 * Greedy colouring in problem order: each contact takes the least colour that no
 * earlier contact on one of its two dynamic bodies holds (a static or fixed side
 * does not count: its velocity is never written). Contacts of one colour therefore
 * touch pairwise disjoint dynamic bodies: each reads and writes only the velocities
 * of its own bodies, so a colour gives the same bits in any order and on any number
 * of threads. The colouring depends on the problem only (never on the thread count).
 *
 * Colours are limited to NSD_RB_COLOURS (one 64-bit mask per body); a contact whose
 * bodies already hold every colour (a body with many contacts, e.g. a large body on a
 * pile) goes to a last run swept in problem order on one thread. Each stage of the
 * problem (n_stages, stage_end) is coloured on its own and stays in place: the
 * coloured order is stage by stage, colour by colour within a stage, problem order
 * within a colour.
 *
 * A problem with blocks (NsdRigidContacts::sweep_block) is not coloured: its order is
 * block 0, block 1, ..., then block -1, problem order within each, as one stage of two
 * runs at most, the blocks' run (each block on one thread, the blocks side by side) and
 * the sequential run of block -1.
 */
#ifndef NSDYN_FC_BODIES_COLOUR_H
#define NSDYN_FC_BODIES_COLOUR_H

#include "nsdyn/nsd_bodies.h"

#if defined(__GNUC__)
#define NSD_RBC_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_RBC_INTERNAL
#endif

/** Colours of one stage at most (bits of a body's mask). */
#define NSD_RB_COLOURS 64

/** The runs of a stage at most: the colours and the last, sequential run. */
#define NSD_RB_RUNS (NSD_RB_COLOURS + 1)

/** A problem's contacts in coloured order, cut into runs. */
typedef struct NsdRbColouring {
  int n_contacts;
  int n_stages;   /**< 1, or the problem's n_stages when > 1 */
  int* order;     /**< [n_contacts] problem contacts, stage by stage, colour by colour */
  int* run_end;   /**< [n_stages * NSD_RB_RUNS] cumulative ends of the runs in order */
  int* stage_run; /**< [n_stages + 1] the runs of stage s: [stage_run[s], stage_run[s + 1]) */
  unsigned char* run_serial; /**< [n_stages * NSD_RB_RUNS] 1: the last run (problem order, one
                                  thread), 0: a colour, NSD_RB_BLOCKS: the blocks */
  int colours;               /**< the most colours of a stage */
  int serial;                /**< contacts in the sequential runs */
  int n_blocks;              /**< with blocks: their count, else 0 */
  int* block_end;            /**< [n_blocks] cumulative ends of the blocks in order */
} NsdRbColouring;

/** run_serial of the blocks' run. */
#define NSD_RB_BLOCKS 2

/**
 * Colour @p p's contacts (nsd_rigid_contacts_check passed). Returns 1, or 0 when out
 * of memory (@p c then empty). Free with nsd_rb_colouring_free.
 */
NSD_RBC_INTERNAL int nsd_rb_colour(const NsdRigidContacts* p, NsdRbColouring* c);

/**
 * The order of @p p's blocks (p->sweep_block, n_blocks > 0; nsd_rigid_contacts_check
 * passed). Returns 1; 0 when out of memory; -1 when two contacts of different blocks share
 * a moving body: @p clash then holds the earlier contact, the later one and the body.
 * @p c is empty unless 1. Free with nsd_rb_colouring_free.
 */
NSD_RBC_INTERNAL int nsd_rb_blocks(const NsdRigidContacts* p, NsdRbColouring* c, int clash[3]);

/** Free what nsd_rb_colour or nsd_rb_blocks allocated (safe on a zeroed struct). */
NSD_RBC_INTERNAL void nsd_rb_colouring_free(NsdRbColouring* c);

/** The first contact position of run @p k in the coloured order. */
static inline int nsd_rb_run_begin(const NsdRbColouring* c, int k) {
  return k > 0 ? c->run_end[k - 1] : 0;
}

#endif
