/* SPAM record and trace-file constants; the definitions are in
 * spam/TRACE-FORMAT.md.  Shared by the machine (which writes records) and
 * the trace tools (which read them); nothing else lives here. */
#ifndef SPAM_FORMAT_H
#define SPAM_FORMAT_H

#include <stdint.h>

/* A record as READ_BUFFER returns it: w0 = R11, w1 = R10. */
struct spam_record {
    uint32_t w0; /* usec<15:0> << 16 | icount<15:0>  */
    uint32_t w1; /* PSL<31:16> << 16 | event id       */
};

#define SPAM_RECORD_BYTES 8u

static inline uint16_t spam_rec_usec(struct spam_record r) { return (uint16_t)(r.w0 >> 16); }
static inline uint16_t spam_rec_icount(struct spam_record r) { return (uint16_t)r.w0; }
static inline uint16_t spam_rec_psl_hi(struct spam_record r) { return (uint16_t)(r.w1 >> 16); }
static inline uint16_t spam_rec_event(struct spam_record r) { return (uint16_t)r.w1; }

/* Event identifier: class in bits 15:12, detail in bits 11:0. */
enum spam_class {
    SPAM_CLASS_INVALID = 0x0,
    SPAM_CLASS_INTERRUPT = 0x1,
    SPAM_CLASS_EXCEPTION = 0x2,
    SPAM_CLASS_CHM = 0x3,
    SPAM_CLASS_LDPCTX = 0x4,
    SPAM_CLASS_REI = 0x5,
    SPAM_CLASS_MARKER = 0x6,
    SPAM_CLASS_PROBE = 0x7, /* a probe's record (issue 30), with its values after it */
};
#define SPAM_EVENT(cls, detail) ((uint16_t)(((cls) << 12) | ((detail) & 0xFFF)))
static inline unsigned spam_event_class(uint16_t ev) { return ev >> 12; }
static inline unsigned spam_event_detail(uint16_t ev) { return ev & 0xFFF; }

/* CHM detail: mode in bits 11:10, code<9:0>. */
static inline unsigned spam_chm_mode(uint16_t ev) { return (ev >> 10) & 3; }
static inline unsigned spam_chm_code(uint16_t ev) { return ev & 0x3FF; }

/* REI detail: IPL left <4:0>, mode left <6:5>, IS left <7>. */
static inline unsigned spam_rei_ipl(uint16_t ev) { return ev & 0x1F; }
static inline unsigned spam_rei_mode(uint16_t ev) { return (ev >> 5) & 3; }
static inline unsigned spam_rei_is(uint16_t ev) { return (ev >> 7) & 1; }

/* Probe record detail: tag <11:4>, the number of values <3:0>; the
 * values follow in (n + 1) / 2 records of two longwords each. */
static inline unsigned spam_probe_tag(uint16_t ev) { return (ev >> 4) & 0xFF; }
static inline unsigned spam_probe_nvals(uint16_t ev) { return ev & 0xF; }
static inline unsigned spam_probe_ext(uint16_t ev) { return (spam_probe_nvals(ev) + 1) / 2; }
#define SPAM_PROBE_MAX_VALUES 15

/* The detail an event selector ("chm:4", "probe:5") compares: the CHM
 * code, the probe record's tag, else the detail. */
static inline unsigned spam_event_select_detail(uint16_t ev)
{
    unsigned cls = ev >> 12;
    return cls == SPAM_CLASS_CHM ? (ev & 0x3FFu) : cls == SPAM_CLASS_PROBE ? spam_probe_tag(ev)
                                                                            : (ev & 0xFFFu);
}

enum spam_marker {
    SPAM_MARKER_ENABLED = 1,
    SPAM_MARKER_DISABLED = 2,
};

/* Extended record after LDPCTX. */
static inline uint16_t spam_ext_pid(struct spam_record r) { return (uint16_t)(r.w0 >> 16); }
static inline uint16_t spam_ext_uid(struct spam_record r) { return (uint16_t)r.w0; }
static inline uint8_t spam_ext_minor(struct spam_record r) { return (uint8_t)(r.w1 >> 24); }
static inline uint8_t spam_ext_major(struct spam_record r) { return (uint8_t)(r.w1 >> 16); }
static inline uint16_t spam_ext_inode(struct spam_record r) { return (uint16_t)r.w1; }

/* PSL<31:16> fields. */
static inline unsigned spam_psl_ipl(uint16_t psl_hi) { return psl_hi & 0x1F; }
static inline unsigned spam_psl_cur_mode(uint16_t psl_hi) { return (psl_hi >> 8) & 3; }
static inline unsigned spam_psl_prv_mode(uint16_t psl_hi) { return (psl_hi >> 6) & 3; }
static inline unsigned spam_psl_is(uint16_t psl_hi) { return (psl_hi >> 10) & 1; }

/* Trace file header (TRACE-FORMAT.md §4). */
#define SPAM_FILE_MAGIC "SPAMTRC" /* 8 bytes with the NUL */
#define SPAM_FILE_VERSION 2u     /* written; 1 (no CRC) is still read */
#define SPAM_FILE_VERSION_MIN 1u /* the oldest version readers accept */
#define SPAM_FILE_HEADER_BYTES 128u
#define SPAM_FILE_CRC_OFFSET 96u /* version 2: CRC-32 of the complete file */
#define SPAM_FILE_FLAG_COMPLETE 0x1u
#define SPAM_FILE_FLAG_REI 0x2u
#define SPAM_FILE_FLAG_CACHE_XLATE 0x4u

#define SPAM_DEFAULT_CYCLE_PS 80000u
#define SPAM_DEFAULT_NICR (-10000)
#define SPAM_DEFAULT_BUFFER_RECORDS 131072u

#endif
