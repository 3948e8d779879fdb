# defs.s: every constant the kernel files share, in one place.
# vasm shares .globl symbols between files, so each file uses these
# names directly.  Nothing here emits a byte.

	.globl	KVA, PGSIZE, PGSHIFT
	KVA	= 0x80000000		# S0 base: S0 VA = KVA + physical address
	PGSIZE	= 512
	PGSHIFT	= 9

# Internal processor registers (vax-facts §3)
	.globl	IPR_KSP, IPR_USP, IPR_ISP, IPR_P0BR, IPR_P0LR, IPR_P1BR, IPR_P1LR
	.globl	IPR_SBR, IPR_SLR, IPR_PCBB, IPR_SCBB, IPR_IPL, IPR_ASTLVL
	.globl	IPR_SIRR, IPR_SISR, IPR_ICCS, IPR_NICR, IPR_ICR, IPR_TODR
	.globl	IPR_RXCS, IPR_RXDB, IPR_TXCS, IPR_TXDB, IPR_MAPEN, IPR_TBIA, IPR_SID
	IPR_KSP	= 0x00
	IPR_USP	= 0x03
	IPR_ISP	= 0x04
	IPR_P0BR = 0x08
	IPR_P0LR = 0x09
	IPR_P1BR = 0x0A
	IPR_P1LR = 0x0B
	IPR_SBR	= 0x0C
	IPR_SLR	= 0x0D
	IPR_PCBB = 0x10
	IPR_SCBB = 0x11
	IPR_IPL	= 0x12
	IPR_ASTLVL = 0x13
	IPR_SIRR = 0x14
	IPR_SISR = 0x15
	IPR_ICCS = 0x18
	IPR_NICR = 0x19
	IPR_ICR	= 0x1A
	IPR_TODR = 0x1B
	IPR_RXCS = 0x20
	IPR_RXDB = 0x21
	IPR_TXCS = 0x22
	IPR_TXDB = 0x23
	IPR_MAPEN = 0x38
	IPR_TBIA = 0x39
	IPR_SID	= 0x3E

# Network interface IPRs (our proposal, see vax/guest/NETDEV.md)
	.globl	IPR_NICSR, IPR_NIBA, IPR_NIBS, IPR_NIRL, IPR_NIDROP
	IPR_NICSR = 0x70
	IPR_NIBA = 0x71
	IPR_NIBS = 0x72
	IPR_NIRL = 0x73
	IPR_NIDROP = 0x74
	.globl	NI_RUN, NI_IE, NI_DONE, NI_ERR, NETBUFSZ
	NI_RUN	= 0x01
	NI_IE	= 0x40
	NI_DONE	= 0x80
	NI_ERR	= 0x8000
	NETBUFSZ = 1536			# receive buffer / largest packet

# PSL fields
	.globl	PSL_C, PSL_CURMOD, PSL_USER
	PSL_C	= 0x1
	PSL_CURMOD = 0x03000000
	PSL_USER = 0x03C00000		# user mode, previous user, IPL 0

# Page-table entries: V (bit 31) | PROT<30:27> | PFN
	.globl	PTE_V, PTE_KW, PTE_UR, PTE_UW
	PTE_V	= 0x80000000
	PTE_KW	= 0x10000000		# prot 2: kernel read/write
	PTE_UR	= 0x78000000		# prot 0xF: everyone reads, nobody writes
	PTE_UW	= 0x20000000		# prot 4: everyone reads and writes

# 4.3BSD struct pcb / struct user (vax-facts §5.1, §6.1)
	.globl	PCB_KSP, PCB_USP, PCB_R0, PCB_PC, PCB_PSL, PCB_P0BR, PCB_P0LR
	.globl	PCB_P1BR, PCB_P1LR, U_PROCP, U_COMM, U_UID, U_RUID
	PCB_KSP	= 0x00
	PCB_USP	= 0x0C
	PCB_R0	= 0x10
	PCB_PC	= 0x48
	PCB_PSL	= 0x4C
	PCB_P0BR = 0x50
	PCB_P0LR = 0x54			# P0LR<21:0>, ASTLVL<26:24>
	PCB_P1BR = 0x58
	PCB_P1LR = 0x5C
	U_PROCP	= 0x80
	U_COMM	= 0x88
	U_UID	= 0x102
	U_RUID	= 0x104

# 4.3BSD struct proc (offsets of the fields SPAM reads are 4.3BSD's;
# the fields marked "ours" sit in slots 4.3BSD uses for other things).
	.globl	P_ADDR, P_STAT, P_FLAG, P_UID, P_PID, P_PPID, P_TEXTP
	.globl	P_WCHAN, P_WAKE, P_TICKS, P_NRUN, P_NSYS, P_PCBPA, P_UVA
	.globl	P_PROG, P_XSTAT, P_FAULTPC, P_SLOT, PROCSZ, NPROC
	P_ADDR	= 0x10			# S0 VA of the SPT entry of u-area page 0
	P_STAT	= 0x17			# byte: 0 free, SSLEEP, SRUN, SZOMB
	P_FLAG	= 0x2C
	P_UID	= 0x30			# u_short
	P_PID	= 0x34			# short
	P_PPID	= 0x36			# short
	P_WCHAN	= 0x38			# ours: what the process sleeps on
	P_WAKE	= 0x3C			# ours: tick to wake at (0 = none)
	P_TICKS	= 0x40			# ours: clock ticks charged
	P_NRUN	= 0x44			# ours: times dispatched (LDPCTX)
	P_NSYS	= 0x48			# ours: system calls made
	P_PCBPA	= 0x4C			# ours: physical address of the PCB
	P_UVA	= 0x50			# ours: S0 VA of the u-area
	P_PROG	= 0x54			# ours: S0 VA of the program descriptor
	P_XSTAT	= 0x58			# ours: exit status / killing vector
	P_FAULTPC = 0x5C		# ours: user fault handler (0 = kill)
	P_SLOT	= 0x60			# ours: physical base of the slot's pages
	P_TEXTP	= 0x64			# -> struct text
	PROCSZ	= 0x80
	NPROC	= 12
	.globl	PROCTABSZ
	PROCTABSZ = 0x600		# NPROC*PROCSZ (sched.s reserves it)
	.globl	SSLEEP, SRUN, SZOMB
	SSLEEP	= 1
	SRUN	= 3
	SZOMB	= 5

# struct text / struct inode (only the fields SPAM reads)
	.globl	X_IPTR, I_DEV, I_NUMBER
	X_IPTR	= 0x44
	I_DEV	= 0x0C
	I_NUMBER = 0x14

# Per-process memory: a slot of physically contiguous pages allocated
# at boot for each proc entry and reused when the entry is reused.
#   slot + 0      u-area (3 pages: struct user, then the kernel stack)
#   slot + 0x600  the P0 page table (one page = 128 PTEs = 64 KB of P0)
#   slot + 0x800  16 private pages: user bss, libc data, user stack
	.globl	UPAGES, SLOTPAGES, SLOT_PT, SLOT_PRIV, NPRIV
	UPAGES	= 3
	SLOT_PT	= 0x600
	SLOT_PRIV = 0x800
	NPRIV	= 16
	SLOTPAGES = 20

# User P0 layout (all processes):
#   0x0000-0x7FFF  program text (shared, read-only)
#   0x8000-0x9FFF  private: libc data at 0x8000, program bss at 0x8100,
#                  the stack grows down from 0xA000
#   0xA000-...     libc text (shared, read-only)
	.globl	UPRIV_VA, ULIBC_VA, UTEXT_MAXPG
	UPRIV_VA = 0x8000
	ULIBC_VA = 0xA000
	UTEXT_MAXPG = 64

# Program descriptor (kernel table of built-in programs)
	.globl	PG_TEXT, PG_END, PG_XTEXT, PG_NAME, PGDSZ
	PG_TEXT	= 0			# physical start of the text
	PG_END	= 4			# physical end
	PG_XTEXT = 8			# S0 VA of its struct text
	PG_NAME	= 12			# 16-byte name
	PGDSZ	= 28

# Error numbers (4.3BSD)
	.globl	EPERM, ESRCH, ENXIO, EFAULT, EAGAIN, EINVAL
	EPERM	= 1
	ESRCH	= 3
	ENXIO	= 6
	EFAULT	= 14
	EAGAIN	= 35
	EINVAL	= 22
	.globl	P_UTICKS
	P_UTICKS = 0x68			# ours: ticks charged in user mode

# Combinations of the above, spelled out: vasm evaluates operators on a
# symbol from another file only at link time, where it allows just
# symbol + constant, so the other files use these.
	.globl	PTE_VKW, PTE_VUR, PTE_VUW, SLOTBYTES, UBYTES, USTACKTOP
	.globl	ULIBC_VPN, KVA_PT, NI_START, NI_ACK
	PTE_VKW	= 0x90000000		# PTE_V|PTE_KW
	PTE_VUR	= 0xF8000000		# PTE_V|PTE_UR
	PTE_VUW	= 0xA0000000		# PTE_V|PTE_UW
	SLOTBYTES = 0x2800		# SLOTPAGES*PGSIZE
	UBYTES	= 0x600			# UPAGES*PGSIZE
	USTACKTOP = 0xA000		# UPRIV_VA+NPRIV*PGSIZE
	ULIBC_VPN = 80			# ULIBC_VA/PGSIZE
	KVA_PT	= 0x80000600		# KVA+SLOT_PT
	NI_START = 0x80C1		# NI_RUN|NI_IE|NI_DONE|NI_ERR
	NI_ACK	= 0x00C1		# NI_RUN|NI_IE|NI_DONE
