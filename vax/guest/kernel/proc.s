# proc.s: processes: slots, creation, exit, and the table of built-in
# programs with their 4.3BSD-shaped text and inode structures.
#
# A process is a proc entry plus a "slot" of physically contiguous pages
# given to the entry at boot (defs.s: u-area, P0 page table, private
# pages).  The u-area's first page holds the PCB and struct user at
# 4.3BSD's offsets; PCBB = its physical address, so SPAM's microcode can
# follow PCBB -> u_procp -> p_textp -> x_iptr -> inode.

	.text
	.globl	procinit, newproc, mkinit, exitproc

# procinit: give every proc entry its slot of pages.
procinit:
	moval	proc, %r2
	movl	$NPROC, %r1
1:	movl	freepa, P_SLOT(%r2)
	addl2	$SLOTBYTES, freepa
	addl2	$PROCSZ, %r2
	sobgtr	%r1, 1b
	moval	libc_end, %r0		# libc pages
	moval	libc_text, %r1
	subl2	%r1, %r0
	ashl	$-9, %r0, nlibcpg
	cmpl	freepa, memsize
	blequ	2f
	moval	m_nomem, %r0
	jsb	panic
2:	rsb

# mkinit: create pid 1 (init, uid 0).
mkinit:	clrl	%r0			# program 0: init
	clrl	%r1			# uid 0
	clrl	%r2
	jsb	newproc
	rsb

# newproc: r0 = program number, r1 = uid, r2 = argument (the new
# process's R0).  Returns r0 = pid, or -1 if no entry is free or the
# program does not exist.  Clobbers r0-r11.
newproc:
	cmpl	%r0, $NPROGS
	blssu	1f
	mnegl	$1, %r0
	rsb
1:	mull3	$PGDSZ, %r0, %r9
	movab	progtab[%r9], %r9	# r9 = program descriptor (S0)
	movl	%r1, %r7		# r7 = uid
	movl	%r2, %r8		# r8 = argument
	mfpr	$IPR_IPL, -(%sp)
	mtpr	$0x1F, $IPR_IPL
	moval	proc, %r6		# find a free entry
	movl	$NPROC, %r1
2:	tstb	P_STAT(%r6)
	beql	3f
	addl2	$PROCSZ, %r6
	sobgtr	%r1, 2b
	mtpr	(%sp)+, $IPR_IPL
	mnegl	$1, %r0
	rsb
3:	movb	$SSLEEP, P_STAT(%r6)	# reserve it (wchan 0: nobody wakes it)
	mtpr	(%sp)+, $IPR_IPL
	movl	P_SLOT(%r6), %r10	# r10 = slot (physical)
	addl3	$KVA, %r10, %r11	# r11 = u-area (S0)
	movc5	$0, (%r6), $0, $SLOTBYTES, (%r11)	# zero the slot
	movl	%r6, %r0		# clear the entry but its slot/state
	movl	$P_STAT, %r1
4:	clrb	(%r0)+
	sobgtr	%r1, 4b
	movab	P_STAT+1(%r6), %r0
	movl	$0x48, %r1		# P_SLOT-P_STAT-1
5:	clrb	(%r0)+
	sobgtr	%r1, 5b
	clrl	P_TEXTP(%r6)
	clrl	P_UTICKS(%r6)
	# struct proc
	incl	nextpid
	movw	nextpid, P_PID(%r6)
	movl	curproc, %r0
	beql	6f
	movw	P_PID(%r0), P_PPID(%r6)
6:	movw	%r7, P_UID(%r6)
	movl	%r10, P_PCBPA(%r6)
	movl	%r11, P_UVA(%r6)
	movl	%r9, P_PROG(%r6)
	movl	PG_XTEXT(%r9), P_TEXTP(%r6)
	ashl	$-9, %r10, %r0	# p_addr: S0 VA of the u-area's PTE
	moval	*sptpa[%r0], %r0	#   (computed in physical terms...
	addl2	$KVA, %r0		#    ...then made S0)
	movl	%r0, P_ADDR(%r6)
	# struct user: PCB first
	addl3	$UBYTES, %r11, PCB_KSP(%r11)
	movl	$USTACKTOP, PCB_USP(%r11)
	movl	%r8, PCB_R0(%r11)
	clrl	PCB_PC(%r11)		# programs start at P0 address 0
	movl	$PSL_USER, PCB_PSL(%r11)
	addl3	$KVA_PT, %r10, PCB_P0BR(%r11)
	addl3	$ULIBC_VPN, nlibcpg, %r0
	bisl3	$0x04000000, %r0, PCB_P0LR(%r11)	# ASTLVL 4: none
	movl	$KVA, PCB_P1BR(%r11)	# no P1 space
	movl	$0x200000, PCB_P1LR(%r11)
	movl	%r6, U_PROCP(%r11)
	movc3	$16, PG_NAME(%r9), U_COMM(%r11)
	movw	%r7, U_UID(%r11)
	movw	%r7, U_RUID(%r11)
	# P0 page table: text (shared, read-only), private pages, libc
	addl3	$SLOT_PT, %r11, %r5	# r5 = page table (S0)
	subl3	PG_TEXT(%r9), PG_END(%r9), %r1
	ashl	$-9, %r1, %r1	# text pages
	ashl	$-9, PG_TEXT(%r9), %r0
	bisl2	$PTE_VUR, %r0
	movl	%r5, %r2
7:	movl	%r0, (%r2)+
	incl	%r0
	sobgtr	%r1, 7b
	addl3	$SLOT_PRIV, %r10, %r0
	ashl	$-9, %r0, %r0
	bisl2	$PTE_VUW, %r0
	movab	0x100(%r5), %r2		# PTE of UPRIV_VA (page 64)
	movl	$NPRIV, %r1
8:	movl	%r0, (%r2)+
	incl	%r0
	sobgtr	%r1, 8b
	moval	libc_text, %r0		# S0 address of the libc pages
	subl2	$KVA, %r0
	ashl	$-9, %r0, %r0
	bisl2	$PTE_VUR, %r0
	movl	nlibcpg, %r1
9:	movl	%r0, (%r2)+
	incl	%r0
	sobgtr	%r1, 9b
	mfpr	$IPR_IPL, -(%sp)	# ready to go: on the run queue
	mtpr	$0x1F, $IPR_IPL
	movl	%r6, %r2
	jsb	setrq
	mtpr	(%sp)+, $IPR_IPL
	incl	nprocs
	cvtwl	P_PID(%r6), %r0
	rsb

# exitproc: r0 = status.  The current process becomes a zombie and never
# runs again; its slot stays allocated so the shutdown report can show
# its statistics.  Called on the process's kernel stack.
exitproc:
	mtpr	$0x1F, $IPR_IPL
	movl	curproc, %r1
	movl	%r0, P_XSTAT(%r1)
	movb	$SZOMB, P_STAT(%r1)
	movpsl	-(%sp)
	jsb	Swtch			# does not come back
	halt

m_nomem: .asciz	"not enough memory for the process slots"

	.data
	.globl	nextpid, nprocs, nlibcpg
nextpid: .long	0
nprocs:	.long	0			# processes created
nlibcpg: .long	0			# libc pages (procinit)
