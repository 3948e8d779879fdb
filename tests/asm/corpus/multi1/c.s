	.text
	.align	4
	jsb	func
	movl	$shared, %r0
	.data
	.byte	9
	.align	4
	.byte	10
