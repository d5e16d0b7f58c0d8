; ModuleID = 'tests/lit/amdgpu-lower/passes/Inputs/passes.ptx'
source_filename = "tests/lit/amdgpu-lower/passes/Inputs/passes.ptx"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @vadd(i64 %vadd_param_0, i64 %vadd_param_1, i64 %vadd_param_2, i32 %vadd_param_3) #0 {
entry:
  %rd1 = alloca i64, align 8, addrspace(5)
  %rd2 = alloca i64, align 8, addrspace(5)
  %rd3 = alloca i64, align 8, addrspace(5)
  %r2 = alloca i32, align 4, addrspace(5)
  %r3 = alloca i32, align 4, addrspace(5)
  %r4 = alloca i32, align 4, addrspace(5)
  %r5 = alloca i32, align 4, addrspace(5)
  %r1 = alloca i32, align 4, addrspace(5)
  %p1 = alloca i1, align 1, addrspace(5)
  %rd4 = alloca i64, align 8, addrspace(5)
  %rd5 = alloca i64, align 8, addrspace(5)
  %rd6 = alloca i64, align 8, addrspace(5)
  %rd7 = alloca i64, align 8, addrspace(5)
  %rd8 = alloca i64, align 8, addrspace(5)
  %f1 = alloca float, align 4, addrspace(5)
  %f2 = alloca float, align 4, addrspace(5)
  %f3 = alloca float, align 4, addrspace(5)
  %rd9 = alloca i64, align 8, addrspace(5)
  %rd10 = alloca i64, align 8, addrspace(5)
  %cc.cf = alloca i1, align 1, addrspace(5)
  store i1 false, ptr addrspace(5) %cc.cf, align 1
  %vadd_param_0.addr = alloca i64, align 8, addrspace(5)
  store i64 %vadd_param_0, ptr addrspace(5) %vadd_param_0.addr, align 8
  %vadd_param_1.addr = alloca i64, align 8, addrspace(5)
  store i64 %vadd_param_1, ptr addrspace(5) %vadd_param_1.addr, align 8
  %vadd_param_2.addr = alloca i64, align 8, addrspace(5)
  store i64 %vadd_param_2, ptr addrspace(5) %vadd_param_2.addr, align 8
  %vadd_param_3.addr = alloca i32, align 4, addrspace(5)
  store i32 %vadd_param_3, ptr addrspace(5) %vadd_param_3.addr, align 4
  br label %body

body:                                             ; preds = %entry
  %0 = load i64, ptr addrspace(5) %vadd_param_0.addr, align 8, !ptx.loc !0
  store i64 %0, ptr addrspace(5) %rd1, align 8, !ptx.loc !0
  %1 = load i64, ptr addrspace(5) %vadd_param_1.addr, align 8, !ptx.loc !1
  store i64 %1, ptr addrspace(5) %rd2, align 8, !ptx.loc !1
  %2 = load i64, ptr addrspace(5) %vadd_param_2.addr, align 8, !ptx.loc !2
  store i64 %2, ptr addrspace(5) %rd3, align 8, !ptx.loc !2
  %3 = load i32, ptr addrspace(5) %vadd_param_3.addr, align 4, !ptx.loc !3
  store i32 %3, ptr addrspace(5) %r2, align 4, !ptx.loc !3
  %4 = call i32 @__ptx_sreg_ctaid_x(), !ptx.loc !4
  store i32 %4, ptr addrspace(5) %r3, align 4, !ptx.loc !4
  %5 = call i32 @__ptx_sreg_ntid_x(), !ptx.loc !5
  store i32 %5, ptr addrspace(5) %r4, align 4, !ptx.loc !5
  %6 = call i32 @__ptx_sreg_tid_x(), !ptx.loc !6
  store i32 %6, ptr addrspace(5) %r5, align 4, !ptx.loc !6
  %r31 = load i32, ptr addrspace(5) %r3, align 4, !ptx.loc !7
  %r42 = load i32, ptr addrspace(5) %r4, align 4, !ptx.loc !7
  %7 = mul i32 %r31, %r42, !ptx.loc !7
  %r53 = load i32, ptr addrspace(5) %r5, align 4, !ptx.loc !7
  %8 = add i32 %7, %r53, !ptx.loc !7
  store i32 %8, ptr addrspace(5) %r1, align 4, !ptx.loc !7
  %r14 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !8
  %r25 = load i32, ptr addrspace(5) %r2, align 4, !ptx.loc !8
  %9 = icmp sge i32 %r14, %r25, !ptx.loc !8
  store i1 %9, ptr addrspace(5) %p1, align 1, !ptx.loc !8
  %p16 = load i1, ptr addrspace(5) %p1, align 1, !ptx.loc !9
  br i1 %p16, label %guard.then, label %guard.cont

guard.then:                                       ; preds = %body
  br label %"$L__BB0_2"

guard.cont:                                       ; preds = %body
  %rd17 = load i64, ptr addrspace(5) %rd1, align 8, !ptx.loc !10
  %10 = inttoptr i64 %rd17 to ptr, !ptx.loc !10
  %11 = addrspacecast ptr %10 to ptr addrspace(1), !ptx.loc !10
  %12 = ptrtoint ptr addrspace(1) %11 to i64, !ptx.loc !10
  store i64 %12, ptr addrspace(5) %rd4, align 8, !ptx.loc !10
  %r18 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !11
  %13 = sext i32 %r18 to i64, !ptx.loc !11
  %14 = mul i64 %13, 4, !ptx.loc !11
  store i64 %14, ptr addrspace(5) %rd5, align 8, !ptx.loc !11
  %rd49 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !12
  %rd510 = load i64, ptr addrspace(5) %rd5, align 8, !ptx.loc !12
  %15 = add i64 %rd49, %rd510, !ptx.loc !12
  store i64 %15, ptr addrspace(5) %rd6, align 8, !ptx.loc !12
  %rd211 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !13
  %16 = inttoptr i64 %rd211 to ptr, !ptx.loc !13
  %17 = addrspacecast ptr %16 to ptr addrspace(1), !ptx.loc !13
  %18 = ptrtoint ptr addrspace(1) %17 to i64, !ptx.loc !13
  store i64 %18, ptr addrspace(5) %rd7, align 8, !ptx.loc !13
  %rd712 = load i64, ptr addrspace(5) %rd7, align 8, !ptx.loc !14
  %rd513 = load i64, ptr addrspace(5) %rd5, align 8, !ptx.loc !14
  %19 = add i64 %rd712, %rd513, !ptx.loc !14
  store i64 %19, ptr addrspace(5) %rd8, align 8, !ptx.loc !14
  %rd814 = load i64, ptr addrspace(5) %rd8, align 8, !ptx.loc !15
  %20 = inttoptr i64 %rd814 to ptr addrspace(1), !ptx.loc !15
  %21 = load float, ptr addrspace(1) %20, align 4, !ptx.loc !15
  store float %21, ptr addrspace(5) %f1, align 4, !ptx.loc !15
  %rd615 = load i64, ptr addrspace(5) %rd6, align 8, !ptx.loc !16
  %22 = inttoptr i64 %rd615 to ptr addrspace(1), !ptx.loc !16
  %23 = load float, ptr addrspace(1) %22, align 4, !ptx.loc !16
  store float %23, ptr addrspace(5) %f2, align 4, !ptx.loc !16
  %f216 = load float, ptr addrspace(5) %f2, align 4, !ptx.loc !17
  %f117 = load float, ptr addrspace(5) %f1, align 4, !ptx.loc !17
  %24 = fadd float %f216, %f117, !ptx.loc !17
  %25 = fcmp uno float %24, %24, !ptx.loc !17
  %26 = select i1 %25, float 0x7FFFFFFFE0000000, float %24, !ptx.loc !17, !ptx2amd.canon !18
  store float %26, ptr addrspace(5) %f3, align 4, !ptx.loc !17
  %rd318 = load i64, ptr addrspace(5) %rd3, align 8, !ptx.loc !19
  %27 = inttoptr i64 %rd318 to ptr, !ptx.loc !19
  %28 = addrspacecast ptr %27 to ptr addrspace(1), !ptx.loc !19
  %29 = ptrtoint ptr addrspace(1) %28 to i64, !ptx.loc !19
  store i64 %29, ptr addrspace(5) %rd9, align 8, !ptx.loc !19
  %rd919 = load i64, ptr addrspace(5) %rd9, align 8, !ptx.loc !20
  %rd520 = load i64, ptr addrspace(5) %rd5, align 8, !ptx.loc !20
  %30 = add i64 %rd919, %rd520, !ptx.loc !20
  store i64 %30, ptr addrspace(5) %rd10, align 8, !ptx.loc !20
  %rd1021 = load i64, ptr addrspace(5) %rd10, align 8, !ptx.loc !21
  %31 = inttoptr i64 %rd1021 to ptr addrspace(1), !ptx.loc !21
  %f322 = load float, ptr addrspace(5) %f3, align 4, !ptx.loc !21
  store float %f322, ptr addrspace(1) %31, align 4, !ptx.loc !21
  br label %"$L__BB0_2"

"$L__BB0_2":                                      ; preds = %guard.cont, %guard.then
  ret void
}

define amdgpu_kernel void @elapsed(i64 %elapsed_param_0, i64 %elapsed_param_1) #1 {
entry:
  %rd10 = alloca i64, align 8, addrspace(5)
  %rd13 = alloca i64, align 8, addrspace(5)
  %rd11 = alloca i64, align 8, addrspace(5)
  %rd2 = alloca i64, align 8, addrspace(5)
  %r1 = alloca i32, align 4, addrspace(5)
  %rd23 = alloca i64, align 8, addrspace(5)
  %p1 = alloca i1, align 1, addrspace(5)
  %r21 = alloca i32, align 4, addrspace(5)
  %r41 = alloca i32, align 4, addrspace(5)
  %p2 = alloca i1, align 1, addrspace(5)
  %r38 = alloca i32, align 4, addrspace(5)
  %r42 = alloca i32, align 4, addrspace(5)
  %r36 = alloca i32, align 4, addrspace(5)
  %rd21 = alloca i64, align 8, addrspace(5)
  %r24 = alloca i32, align 4, addrspace(5)
  %r25 = alloca i32, align 4, addrspace(5)
  %r26 = alloca i32, align 4, addrspace(5)
  %r27 = alloca i32, align 4, addrspace(5)
  %r28 = alloca i32, align 4, addrspace(5)
  %r29 = alloca i32, align 4, addrspace(5)
  %rd4 = alloca i64, align 8, addrspace(5)
  %r30 = alloca i32, align 4, addrspace(5)
  %p3 = alloca i1, align 1, addrspace(5)
  %p4 = alloca i1, align 1, addrspace(5)
  %r31 = alloca i32, align 4, addrspace(5)
  %rd14 = alloca i64, align 8, addrspace(5)
  %rd22 = alloca i64, align 8, addrspace(5)
  %r32 = alloca i32, align 4, addrspace(5)
  %p5 = alloca i1, align 1, addrspace(5)
  %rd15 = alloca i64, align 8, addrspace(5)
  %rd16 = alloca i64, align 8, addrspace(5)
  %rd17 = alloca i64, align 8, addrspace(5)
  %r33 = alloca i32, align 4, addrspace(5)
  %rd18 = alloca i64, align 8, addrspace(5)
  %rd19 = alloca i64, align 8, addrspace(5)
  %rd20 = alloca i64, align 8, addrspace(5)
  %cc.cf = alloca i1, align 1, addrspace(5)
  store i1 false, ptr addrspace(5) %cc.cf, align 1
  %elapsed_param_0.addr = alloca i64, align 8, addrspace(5)
  store i64 %elapsed_param_0, ptr addrspace(5) %elapsed_param_0.addr, align 8
  %elapsed_param_1.addr = alloca i64, align 8, addrspace(5)
  store i64 %elapsed_param_1, ptr addrspace(5) %elapsed_param_1.addr, align 8
  br label %body

body:                                             ; preds = %entry
  %0 = load i64, ptr addrspace(5) %elapsed_param_0.addr, align 8, !ptx.loc !22
  store i64 %0, ptr addrspace(5) %rd10, align 8, !ptx.loc !22
  %1 = load i64, ptr addrspace(5) %elapsed_param_1.addr, align 8, !ptx.loc !23
  store i64 %1, ptr addrspace(5) %rd13, align 8, !ptx.loc !23
  %2 = call i64 @__ptx_sreg_clock64(), !ptx.loc !24
  store i64 %2, ptr addrspace(5) %rd11, align 8, !ptx.loc !24
  %rd131 = load i64, ptr addrspace(5) %rd13, align 8, !ptx.loc !25
  %3 = inttoptr i64 %rd131 to ptr, !ptx.loc !25
  %4 = addrspacecast ptr %3 to ptr addrspace(1), !ptx.loc !25
  %5 = ptrtoint ptr addrspace(1) %4 to i64, !ptx.loc !25
  store i64 %5, ptr addrspace(5) %rd2, align 8, !ptx.loc !25
  %rd24 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !26
  %6 = inttoptr i64 %rd24 to ptr addrspace(1), !ptx.loc !26
  %7 = load i32, ptr addrspace(1) %6, align 4, !ptx.loc !26
  store i32 %7, ptr addrspace(5) %r1, align 4, !ptx.loc !26
  store i64 0, ptr addrspace(5) %rd23, align 8, !ptx.loc !27
  %r15 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !28
  %8 = icmp slt i32 %r15, 1, !ptx.loc !28
  store i1 %8, ptr addrspace(5) %p1, align 1, !ptx.loc !28
  %p16 = load i1, ptr addrspace(5) %p1, align 1, !ptx.loc !29
  br i1 %p16, label %guard.then, label %guard.cont

guard.then:                                       ; preds = %body
  br label %"$L__BB1_8"

guard.cont:                                       ; preds = %body
  %r17 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !30
  %9 = add i32 %r17, -1, !ptx.loc !30
  store i32 %9, ptr addrspace(5) %r21, align 4, !ptx.loc !30
  %r18 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !31
  %10 = and i32 %r18, 3, !ptx.loc !31
  store i32 %10, ptr addrspace(5) %r41, align 4, !ptx.loc !31
  %r219 = load i32, ptr addrspace(5) %r21, align 4, !ptx.loc !32
  %11 = icmp ult i32 %r219, 3, !ptx.loc !32
  store i1 %11, ptr addrspace(5) %p2, align 1, !ptx.loc !32
  store i32 0, ptr addrspace(5) %r38, align 4, !ptx.loc !33
  %r3810 = load i32, ptr addrspace(5) %r38, align 4, !ptx.loc !34
  store i32 %r3810, ptr addrspace(5) %r42, align 4, !ptx.loc !34
  %p211 = load i1, ptr addrspace(5) %p2, align 1, !ptx.loc !35
  br i1 %p211, label %guard.then12, label %guard.cont13

guard.then12:                                     ; preds = %guard.cont
  br label %"$L__BB1_4"

guard.cont13:                                     ; preds = %guard.cont
  %r114 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !36
  %r4115 = load i32, ptr addrspace(5) %r41, align 4, !ptx.loc !36
  %12 = sub i32 %r114, %r4115, !ptx.loc !36
  store i32 %12, ptr addrspace(5) %r36, align 4, !ptx.loc !36
  store i32 0, ptr addrspace(5) %r38, align 4, !ptx.loc !37
  %rd216 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !38
  store i64 %rd216, ptr addrspace(5) %rd21, align 8, !ptx.loc !38
  br label %"$L__BB1_3"

"$L__BB1_3":                                      ; preds = %guard.then35, %guard.cont13
  %rd2117 = load i64, ptr addrspace(5) %rd21, align 8, !ptx.loc !39
  %13 = inttoptr i64 %rd2117 to ptr addrspace(1), !ptx.loc !39
  %14 = getelementptr i8, ptr addrspace(1) %13, i64 4, !ptx.loc !39
  %15 = load i32, ptr addrspace(1) %14, align 4, !ptx.loc !39
  store i32 %15, ptr addrspace(5) %r24, align 4, !ptx.loc !39
  %r2418 = load i32, ptr addrspace(5) %r24, align 4, !ptx.loc !40
  %r4219 = load i32, ptr addrspace(5) %r42, align 4, !ptx.loc !40
  %16 = add i32 %r2418, %r4219, !ptx.loc !40
  store i32 %16, ptr addrspace(5) %r25, align 4, !ptx.loc !40
  %rd2120 = load i64, ptr addrspace(5) %rd21, align 8, !ptx.loc !41
  %17 = inttoptr i64 %rd2120 to ptr addrspace(1), !ptx.loc !41
  %18 = getelementptr i8, ptr addrspace(1) %17, i64 8, !ptx.loc !41
  %19 = load i32, ptr addrspace(1) %18, align 4, !ptx.loc !41
  store i32 %19, ptr addrspace(5) %r26, align 4, !ptx.loc !41
  %r2621 = load i32, ptr addrspace(5) %r26, align 4, !ptx.loc !42
  %r2522 = load i32, ptr addrspace(5) %r25, align 4, !ptx.loc !42
  %20 = add i32 %r2621, %r2522, !ptx.loc !42
  store i32 %20, ptr addrspace(5) %r27, align 4, !ptx.loc !42
  %rd2123 = load i64, ptr addrspace(5) %rd21, align 8, !ptx.loc !43
  %21 = inttoptr i64 %rd2123 to ptr addrspace(1), !ptx.loc !43
  %22 = getelementptr i8, ptr addrspace(1) %21, i64 12, !ptx.loc !43
  %23 = load i32, ptr addrspace(1) %22, align 4, !ptx.loc !43
  store i32 %23, ptr addrspace(5) %r28, align 4, !ptx.loc !43
  %r2824 = load i32, ptr addrspace(5) %r28, align 4, !ptx.loc !44
  %r2725 = load i32, ptr addrspace(5) %r27, align 4, !ptx.loc !44
  %24 = add i32 %r2824, %r2725, !ptx.loc !44
  store i32 %24, ptr addrspace(5) %r29, align 4, !ptx.loc !44
  %r3826 = load i32, ptr addrspace(5) %r38, align 4, !ptx.loc !45
  %25 = add i32 %r3826, 4, !ptx.loc !45
  store i32 %25, ptr addrspace(5) %r38, align 4, !ptx.loc !45
  %rd2127 = load i64, ptr addrspace(5) %rd21, align 8, !ptx.loc !46
  %26 = add i64 %rd2127, 16, !ptx.loc !46
  store i64 %26, ptr addrspace(5) %rd4, align 8, !ptx.loc !46
  %rd2128 = load i64, ptr addrspace(5) %rd21, align 8, !ptx.loc !47
  %27 = inttoptr i64 %rd2128 to ptr addrspace(1), !ptx.loc !47
  %28 = getelementptr i8, ptr addrspace(1) %27, i64 16, !ptx.loc !47
  %29 = load i32, ptr addrspace(1) %28, align 4, !ptx.loc !47
  store i32 %29, ptr addrspace(5) %r30, align 4, !ptx.loc !47
  %r3029 = load i32, ptr addrspace(5) %r30, align 4, !ptx.loc !48
  %r2930 = load i32, ptr addrspace(5) %r29, align 4, !ptx.loc !48
  %30 = add i32 %r3029, %r2930, !ptx.loc !48
  store i32 %30, ptr addrspace(5) %r42, align 4, !ptx.loc !48
  %r3631 = load i32, ptr addrspace(5) %r36, align 4, !ptx.loc !49
  %31 = add i32 %r3631, -4, !ptx.loc !49
  store i32 %31, ptr addrspace(5) %r36, align 4, !ptx.loc !49
  %r3632 = load i32, ptr addrspace(5) %r36, align 4, !ptx.loc !50
  %32 = icmp ne i32 %r3632, 0, !ptx.loc !50
  store i1 %32, ptr addrspace(5) %p3, align 1, !ptx.loc !50
  %rd433 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !51
  store i64 %rd433, ptr addrspace(5) %rd21, align 8, !ptx.loc !51
  %p334 = load i1, ptr addrspace(5) %p3, align 1, !ptx.loc !52
  br i1 %p334, label %guard.then35, label %guard.cont36

guard.then35:                                     ; preds = %"$L__BB1_3"
  br label %"$L__BB1_3"

guard.cont36:                                     ; preds = %"$L__BB1_3"
  br label %"$L__BB1_4"

"$L__BB1_4":                                      ; preds = %guard.cont36, %guard.then12
  %r4137 = load i32, ptr addrspace(5) %r41, align 4, !ptx.loc !53
  %33 = icmp eq i32 %r4137, 0, !ptx.loc !53
  store i1 %33, ptr addrspace(5) %p4, align 1, !ptx.loc !53
  %p438 = load i1, ptr addrspace(5) %p4, align 1, !ptx.loc !54
  br i1 %p438, label %guard.then39, label %guard.cont40

guard.then39:                                     ; preds = %"$L__BB1_4"
  br label %"$L__BB1_7"

guard.cont40:                                     ; preds = %"$L__BB1_4"
  %r3841 = load i32, ptr addrspace(5) %r38, align 4, !ptx.loc !55
  %34 = add i32 %r3841, 1, !ptx.loc !55
  store i32 %34, ptr addrspace(5) %r31, align 4, !ptx.loc !55
  %r3142 = load i32, ptr addrspace(5) %r31, align 4, !ptx.loc !56
  %35 = sext i32 %r3142 to i64, !ptx.loc !56
  %36 = mul i64 %35, 4, !ptx.loc !56
  store i64 %36, ptr addrspace(5) %rd14, align 8, !ptx.loc !56
  %rd243 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !57
  %rd1444 = load i64, ptr addrspace(5) %rd14, align 8, !ptx.loc !57
  %37 = add i64 %rd243, %rd1444, !ptx.loc !57
  store i64 %37, ptr addrspace(5) %rd22, align 8, !ptx.loc !57
  br label %"$L__BB1_6"

"$L__BB1_6":                                      ; preds = %guard.then52, %guard.cont40
  %rd2245 = load i64, ptr addrspace(5) %rd22, align 8, !ptx.loc !58
  %38 = inttoptr i64 %rd2245 to ptr addrspace(1), !ptx.loc !58
  %39 = load i32, ptr addrspace(1) %38, align 4, !ptx.loc !58
  store i32 %39, ptr addrspace(5) %r32, align 4, !ptx.loc !58
  %r3246 = load i32, ptr addrspace(5) %r32, align 4, !ptx.loc !59
  %r4247 = load i32, ptr addrspace(5) %r42, align 4, !ptx.loc !59
  %40 = add i32 %r3246, %r4247, !ptx.loc !59
  store i32 %40, ptr addrspace(5) %r42, align 4, !ptx.loc !59
  %rd2248 = load i64, ptr addrspace(5) %rd22, align 8, !ptx.loc !60
  %41 = add i64 %rd2248, 4, !ptx.loc !60
  store i64 %41, ptr addrspace(5) %rd22, align 8, !ptx.loc !60
  %r4149 = load i32, ptr addrspace(5) %r41, align 4, !ptx.loc !61
  %42 = add i32 %r4149, -1, !ptx.loc !61
  store i32 %42, ptr addrspace(5) %r41, align 4, !ptx.loc !61
  %r4150 = load i32, ptr addrspace(5) %r41, align 4, !ptx.loc !62
  %43 = icmp ne i32 %r4150, 0, !ptx.loc !62
  store i1 %43, ptr addrspace(5) %p5, align 1, !ptx.loc !62
  %p551 = load i1, ptr addrspace(5) %p5, align 1, !ptx.loc !63
  br i1 %p551, label %guard.then52, label %guard.cont53

guard.then52:                                     ; preds = %"$L__BB1_6"
  br label %"$L__BB1_6"

guard.cont53:                                     ; preds = %"$L__BB1_6"
  br label %"$L__BB1_7"

"$L__BB1_7":                                      ; preds = %guard.cont53, %guard.then39
  %r4254 = load i32, ptr addrspace(5) %r42, align 4, !ptx.loc !64
  %44 = sext i32 %r4254 to i64, !ptx.loc !64
  store i64 %44, ptr addrspace(5) %rd23, align 8, !ptx.loc !64
  br label %"$L__BB1_8"

"$L__BB1_8":                                      ; preds = %"$L__BB1_7", %guard.then
  %45 = call i64 @__ptx_sreg_clock64(), !ptx.loc !65
  store i64 %45, ptr addrspace(5) %rd15, align 8, !ptx.loc !65
  %rd2355 = load i64, ptr addrspace(5) %rd23, align 8, !ptx.loc !66
  %rd1156 = load i64, ptr addrspace(5) %rd11, align 8, !ptx.loc !66
  %46 = sub i64 %rd2355, %rd1156, !ptx.loc !66
  store i64 %46, ptr addrspace(5) %rd16, align 8, !ptx.loc !66
  %rd1657 = load i64, ptr addrspace(5) %rd16, align 8, !ptx.loc !67
  %rd1558 = load i64, ptr addrspace(5) %rd15, align 8, !ptx.loc !67
  %47 = add i64 %rd1657, %rd1558, !ptx.loc !67
  store i64 %47, ptr addrspace(5) %rd17, align 8, !ptx.loc !67
  %48 = call i32 @__ptx_sreg_tid_x(), !ptx.loc !68
  store i32 %48, ptr addrspace(5) %r33, align 4, !ptx.loc !68
  %rd1059 = load i64, ptr addrspace(5) %rd10, align 8, !ptx.loc !69
  %49 = inttoptr i64 %rd1059 to ptr, !ptx.loc !69
  %50 = addrspacecast ptr %49 to ptr addrspace(1), !ptx.loc !69
  %51 = ptrtoint ptr addrspace(1) %50 to i64, !ptx.loc !69
  store i64 %51, ptr addrspace(5) %rd18, align 8, !ptx.loc !69
  %r3360 = load i32, ptr addrspace(5) %r33, align 4, !ptx.loc !70
  %52 = zext i32 %r3360 to i64, !ptx.loc !70
  %53 = mul i64 %52, 8, !ptx.loc !70
  store i64 %53, ptr addrspace(5) %rd19, align 8, !ptx.loc !70
  %rd1861 = load i64, ptr addrspace(5) %rd18, align 8, !ptx.loc !71
  %rd1962 = load i64, ptr addrspace(5) %rd19, align 8, !ptx.loc !71
  %54 = add i64 %rd1861, %rd1962, !ptx.loc !71
  store i64 %54, ptr addrspace(5) %rd20, align 8, !ptx.loc !71
  %rd2063 = load i64, ptr addrspace(5) %rd20, align 8, !ptx.loc !72
  %55 = inttoptr i64 %rd2063 to ptr addrspace(1), !ptx.loc !72
  %rd1764 = load i64, ptr addrspace(5) %rd17, align 8, !ptx.loc !72
  store i64 %rd1764, ptr addrspace(1) %55, align 8, !ptx.loc !72
  ret void
}

define amdgpu_kernel void @scale(i64 %scale_param_0, i64 %scale_param_1, i64 %scale_param_2) #2 {
entry:
  %rd2 = alloca i64, align 8, addrspace(5)
  %rd3 = alloca i64, align 8, addrspace(5)
  %rd1 = alloca i64, align 8, addrspace(5)
  %rd4 = alloca i64, align 8, addrspace(5)
  %r1 = alloca i32, align 4, addrspace(5)
  %rd5 = alloca i64, align 8, addrspace(5)
  %rd6 = alloca i64, align 8, addrspace(5)
  %rd7 = alloca i64, align 8, addrspace(5)
  %f1 = alloca float, align 4, addrspace(5)
  %f2 = alloca float, align 4, addrspace(5)
  %f3 = alloca float, align 4, addrspace(5)
  %rd8 = alloca i64, align 8, addrspace(5)
  %f4 = alloca float, align 4, addrspace(5)
  %f5 = alloca float, align 4, addrspace(5)
  %p1 = alloca i1, align 1, addrspace(5)
  %rd9 = alloca i64, align 8, addrspace(5)
  %r2 = alloca i32, align 4, addrspace(5)
  %cc.cf = alloca i1, align 1, addrspace(5)
  store i1 false, ptr addrspace(5) %cc.cf, align 1
  %scale_param_0.addr = alloca i64, align 8, addrspace(5)
  store i64 %scale_param_0, ptr addrspace(5) %scale_param_0.addr, align 8
  %scale_param_1.addr = alloca i64, align 8, addrspace(5)
  store i64 %scale_param_1, ptr addrspace(5) %scale_param_1.addr, align 8
  %scale_param_2.addr = alloca i64, align 8, addrspace(5)
  store i64 %scale_param_2, ptr addrspace(5) %scale_param_2.addr, align 8
  br label %body

body:                                             ; preds = %entry
  %0 = load i64, ptr addrspace(5) %scale_param_0.addr, align 8, !ptx.loc !73
  store i64 %0, ptr addrspace(5) %rd2, align 8, !ptx.loc !73
  %1 = load i64, ptr addrspace(5) %scale_param_1.addr, align 8, !ptx.loc !74
  store i64 %1, ptr addrspace(5) %rd3, align 8, !ptx.loc !74
  %2 = load i64, ptr addrspace(5) %scale_param_2.addr, align 8, !ptx.loc !75
  store i64 %2, ptr addrspace(5) %rd1, align 8, !ptx.loc !75
  %rd31 = load i64, ptr addrspace(5) %rd3, align 8, !ptx.loc !76
  %3 = inttoptr i64 %rd31 to ptr, !ptx.loc !76
  %4 = addrspacecast ptr %3 to ptr addrspace(1), !ptx.loc !76
  %5 = ptrtoint ptr addrspace(1) %4 to i64, !ptx.loc !76
  store i64 %5, ptr addrspace(5) %rd4, align 8, !ptx.loc !76
  %6 = call i32 @__ptx_sreg_tid_x(), !ptx.loc !77
  store i32 %6, ptr addrspace(5) %r1, align 4, !ptx.loc !77
  %rd22 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !78
  %7 = inttoptr i64 %rd22 to ptr, !ptx.loc !78
  %8 = addrspacecast ptr %7 to ptr addrspace(1), !ptx.loc !78
  %9 = ptrtoint ptr addrspace(1) %8 to i64, !ptx.loc !78
  store i64 %9, ptr addrspace(5) %rd5, align 8, !ptx.loc !78
  %r13 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !79
  %10 = sext i32 %r13 to i64, !ptx.loc !79
  %11 = mul i64 %10, 4, !ptx.loc !79
  store i64 %11, ptr addrspace(5) %rd6, align 8, !ptx.loc !79
  %rd54 = load i64, ptr addrspace(5) %rd5, align 8, !ptx.loc !80
  %rd65 = load i64, ptr addrspace(5) %rd6, align 8, !ptx.loc !80
  %12 = add i64 %rd54, %rd65, !ptx.loc !80
  store i64 %12, ptr addrspace(5) %rd7, align 8, !ptx.loc !80
  %rd76 = load i64, ptr addrspace(5) %rd7, align 8, !ptx.loc !81
  %13 = inttoptr i64 %rd76 to ptr addrspace(1), !ptx.loc !81
  %14 = load float, ptr addrspace(1) %13, align 4, !ptx.loc !81
  store float %14, ptr addrspace(5) %f1, align 4, !ptx.loc !81
  %f17 = load float, ptr addrspace(5) %f1, align 4, !ptx.loc !82
  %15 = call float @llvm.fma.f32(float %f17, float 3.000000e+00, float 1.000000e+00), !ptx.loc !82
  %16 = fcmp uno float %15, %15, !ptx.loc !82
  %17 = select i1 %16, float 0x7FFFFFFFE0000000, float %15, !ptx.loc !82, !ptx2amd.canon !18
  store float %17, ptr addrspace(5) %f2, align 4, !ptx.loc !82
  %f28 = load float, ptr addrspace(5) %f2, align 4, !ptx.loc !83
  %f29 = load float, ptr addrspace(5) %f2, align 4, !ptx.loc !83
  %18 = fmul float %f28, %f29, !ptx.loc !83
  %19 = fcmp uno float %18, %18, !ptx.loc !83
  %20 = select i1 %19, float 0x7FFFFFFFE0000000, float %18, !ptx.loc !83, !ptx2amd.canon !18
  store float %20, ptr addrspace(5) %f3, align 4, !ptx.loc !83
  %rd410 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !84
  %rd611 = load i64, ptr addrspace(5) %rd6, align 8, !ptx.loc !84
  %21 = add i64 %rd410, %rd611, !ptx.loc !84
  store i64 %21, ptr addrspace(5) %rd8, align 8, !ptx.loc !84
  %rd812 = load i64, ptr addrspace(5) %rd8, align 8, !ptx.loc !85
  %22 = inttoptr i64 %rd812 to ptr addrspace(1), !ptx.loc !85
  %f313 = load float, ptr addrspace(5) %f3, align 4, !ptx.loc !85
  store float %f313, ptr addrspace(1) %22, align 4, !ptx.loc !85
  %rd714 = load i64, ptr addrspace(5) %rd7, align 8, !ptx.loc !86
  %23 = inttoptr i64 %rd714 to ptr addrspace(1), !ptx.loc !86
  %24 = load float, ptr addrspace(1) %23, align 4, !ptx.loc !86
  store float %24, ptr addrspace(5) %f4, align 4, !ptx.loc !86
  %f415 = load float, ptr addrspace(5) %f4, align 4, !ptx.loc !87
  %f416 = load float, ptr addrspace(5) %f4, align 4, !ptx.loc !87
  %25 = fadd float %f415, %f416, !ptx.loc !87
  %26 = fcmp uno float %25, %25, !ptx.loc !87
  %27 = select i1 %26, float 0x7FFFFFFFE0000000, float %25, !ptx.loc !87, !ptx2amd.canon !18
  store float %27, ptr addrspace(5) %f5, align 4, !ptx.loc !87
  %f517 = load float, ptr addrspace(5) %f5, align 4, !ptx.loc !88
  %28 = fcmp ule float %f517, 1.000000e+00, !ptx.loc !88
  store i1 %28, ptr addrspace(5) %p1, align 1, !ptx.loc !88
  %p118 = load i1, ptr addrspace(5) %p1, align 1, !ptx.loc !89
  br i1 %p118, label %guard.then, label %guard.cont

guard.then:                                       ; preds = %body
  br label %"$L__BB2_2"

guard.cont:                                       ; preds = %body
  %rd119 = load i64, ptr addrspace(5) %rd1, align 8, !ptx.loc !90
  %29 = inttoptr i64 %rd119 to ptr, !ptx.loc !90
  %30 = addrspacecast ptr %29 to ptr addrspace(1), !ptx.loc !90
  %31 = ptrtoint ptr addrspace(1) %30 to i64, !ptx.loc !90
  store i64 %31, ptr addrspace(5) %rd9, align 8, !ptx.loc !90
  store i32 1, ptr addrspace(5) %r2, align 4, !ptx.loc !91
  %rd920 = load i64, ptr addrspace(5) %rd9, align 8, !ptx.loc !92
  %32 = inttoptr i64 %rd920 to ptr addrspace(1), !ptx.loc !92
  %r221 = load i32, ptr addrspace(5) %r2, align 4, !ptx.loc !92
  store i32 %r221, ptr addrspace(1) %32, align 4, !ptx.loc !92
  br label %"$L__BB2_2"

"$L__BB2_2":                                      ; preds = %guard.cont, %guard.then
  ret void
}

; Function Attrs: nounwind
declare i32 @__ptx_sreg_ctaid_x() #3

; Function Attrs: nounwind
declare i32 @__ptx_sreg_ntid_x() #3

; Function Attrs: nounwind
declare i32 @__ptx_sreg_tid_x() #3

; Function Attrs: nounwind
declare i64 @__ptx_sreg_clock64() #3

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #4

attributes #0 = { "ptx.kernel" "ptx.loc"="15:10" }
attributes #1 = { "ptx.kernel" "ptx.loc"="56:10" }
attributes #2 = { "ptx.kernel" "ptx.loc"="139:10" }
attributes #3 = { nounwind }
attributes #4 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!0 = !{i32 28, i32 2}
!1 = !{i32 29, i32 2}
!2 = !{i32 30, i32 2}
!3 = !{i32 31, i32 2}
!4 = !{i32 32, i32 2}
!5 = !{i32 33, i32 2}
!6 = !{i32 34, i32 2}
!7 = !{i32 35, i32 2}
!8 = !{i32 36, i32 2}
!9 = !{i32 37, i32 2}
!10 = !{i32 39, i32 2}
!11 = !{i32 40, i32 2}
!12 = !{i32 41, i32 2}
!13 = !{i32 42, i32 2}
!14 = !{i32 43, i32 2}
!15 = !{i32 44, i32 2}
!16 = !{i32 45, i32 2}
!17 = !{i32 46, i32 2}
!18 = !{}
!19 = !{i32 47, i32 2}
!20 = !{i32 48, i32 2}
!21 = !{i32 49, i32 2}
!22 = !{i32 66, i32 2}
!23 = !{i32 67, i32 2}
!24 = !{i32 69, i32 2}
!25 = !{i32 71, i32 2}
!26 = !{i32 72, i32 2}
!27 = !{i32 73, i32 2}
!28 = !{i32 74, i32 2}
!29 = !{i32 75, i32 2}
!30 = !{i32 77, i32 2}
!31 = !{i32 78, i32 2}
!32 = !{i32 79, i32 2}
!33 = !{i32 80, i32 2}
!34 = !{i32 81, i32 2}
!35 = !{i32 82, i32 2}
!36 = !{i32 84, i32 2}
!37 = !{i32 85, i32 2}
!38 = !{i32 86, i32 2}
!39 = !{i32 89, i32 2}
!40 = !{i32 90, i32 2}
!41 = !{i32 91, i32 2}
!42 = !{i32 92, i32 2}
!43 = !{i32 93, i32 2}
!44 = !{i32 94, i32 2}
!45 = !{i32 95, i32 2}
!46 = !{i32 96, i32 2}
!47 = !{i32 97, i32 2}
!48 = !{i32 98, i32 2}
!49 = !{i32 99, i32 2}
!50 = !{i32 100, i32 2}
!51 = !{i32 101, i32 2}
!52 = !{i32 102, i32 2}
!53 = !{i32 105, i32 2}
!54 = !{i32 106, i32 2}
!55 = !{i32 108, i32 2}
!56 = !{i32 109, i32 2}
!57 = !{i32 110, i32 2}
!58 = !{i32 114, i32 2}
!59 = !{i32 115, i32 2}
!60 = !{i32 116, i32 2}
!61 = !{i32 117, i32 2}
!62 = !{i32 118, i32 2}
!63 = !{i32 119, i32 2}
!64 = !{i32 122, i32 2}
!65 = !{i32 126, i32 2}
!66 = !{i32 128, i32 2}
!67 = !{i32 129, i32 2}
!68 = !{i32 130, i32 2}
!69 = !{i32 131, i32 2}
!70 = !{i32 132, i32 2}
!71 = !{i32 133, i32 2}
!72 = !{i32 134, i32 2}
!73 = !{i32 151, i32 2}
!74 = !{i32 152, i32 2}
!75 = !{i32 153, i32 2}
!76 = !{i32 154, i32 2}
!77 = !{i32 155, i32 2}
!78 = !{i32 156, i32 2}
!79 = !{i32 157, i32 2}
!80 = !{i32 158, i32 2}
!81 = !{i32 159, i32 2}
!82 = !{i32 160, i32 2}
!83 = !{i32 161, i32 2}
!84 = !{i32 162, i32 2}
!85 = !{i32 163, i32 2}
!86 = !{i32 164, i32 2}
!87 = !{i32 165, i32 2}
!88 = !{i32 166, i32 2}
!89 = !{i32 167, i32 2}
!90 = !{i32 169, i32 2}
!91 = !{i32 170, i32 2}
!92 = !{i32 171, i32 2}
