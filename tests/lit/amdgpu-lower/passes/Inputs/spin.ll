; ModuleID = 'tests/lit/amdgpu-lower/Inputs/spin.ptx'
source_filename = "tests/lit/amdgpu-lower/Inputs/spin.ptx"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @_Z7handoffPViPi(i64 %_Z7handoffPViPi_param_0, i64 %_Z7handoffPViPi_param_1) #0 {
entry:
  %rd3 = alloca i64, align 8, addrspace(5)
  %rd2 = alloca i64, align 8, addrspace(5)
  %rd1 = alloca i64, align 8, addrspace(5)
  %r1 = alloca i32, align 4, addrspace(5)
  %p1 = alloca i1, align 1, addrspace(5)
  %r2 = alloca i32, align 4, addrspace(5)
  %p2 = alloca i1, align 1, addrspace(5)
  %r3 = alloca i32, align 4, addrspace(5)
  %p3 = alloca i1, align 1, addrspace(5)
  %r4 = alloca i32, align 4, addrspace(5)
  %r5 = alloca i32, align 4, addrspace(5)
  %p4 = alloca i1, align 1, addrspace(5)
  %rd4 = alloca i64, align 8, addrspace(5)
  %r6 = alloca i32, align 4, addrspace(5)
  %cc.cf = alloca i1, align 1, addrspace(5)
  store i1 false, ptr addrspace(5) %cc.cf, align 1
  %_Z7handoffPViPi_param_0.addr = alloca i64, align 8, addrspace(5)
  store i64 %_Z7handoffPViPi_param_0, ptr addrspace(5) %_Z7handoffPViPi_param_0.addr, align 8
  %_Z7handoffPViPi_param_1.addr = alloca i64, align 8, addrspace(5)
  store i64 %_Z7handoffPViPi_param_1, ptr addrspace(5) %_Z7handoffPViPi_param_1.addr, align 8
  br label %body

body:                                             ; preds = %entry
  %0 = load i64, ptr addrspace(5) %_Z7handoffPViPi_param_0.addr, align 8, !ptx.loc !0
  store i64 %0, ptr addrspace(5) %rd3, align 8, !ptx.loc !0
  %1 = load i64, ptr addrspace(5) %_Z7handoffPViPi_param_1.addr, align 8, !ptx.loc !1
  store i64 %1, ptr addrspace(5) %rd2, align 8, !ptx.loc !1
  %rd31 = load i64, ptr addrspace(5) %rd3, align 8, !ptx.loc !2
  %2 = inttoptr i64 %rd31 to ptr, !ptx.loc !2
  %3 = addrspacecast ptr %2 to ptr addrspace(1), !ptx.loc !2
  %4 = ptrtoint ptr addrspace(1) %3 to i64, !ptx.loc !2
  store i64 %4, ptr addrspace(5) %rd1, align 8, !ptx.loc !2
  %5 = call i32 @__ptx_sreg_tid_x(), !ptx.loc !3
  store i32 %5, ptr addrspace(5) %r1, align 4, !ptx.loc !3
  %r12 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !4
  %6 = icmp ne i32 %r12, 0, !ptx.loc !4
  store i1 %6, ptr addrspace(5) %p1, align 1, !ptx.loc !4
  %p13 = load i1, ptr addrspace(5) %p1, align 1, !ptx.loc !5
  br i1 %p13, label %guard.then, label %guard.cont

guard.then:                                       ; preds = %body
  br label %"$L__BB0_2"

guard.cont:                                       ; preds = %body
  store i32 1, ptr addrspace(5) %r2, align 4, !ptx.loc !6
  %rd14 = load i64, ptr addrspace(5) %rd1, align 8, !ptx.loc !7
  %7 = inttoptr i64 %rd14 to ptr addrspace(1), !ptx.loc !7
  %r25 = load i32, ptr addrspace(5) %r2, align 4, !ptx.loc !7
  store volatile i32 %r25, ptr addrspace(1) %7, align 4, !ptx.loc !7
  br label %"$L__BB0_2"

"$L__BB0_2":                                      ; preds = %guard.cont, %guard.then
  %r16 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !8
  %8 = icmp ne i32 %r16, 32, !ptx.loc !8
  store i1 %8, ptr addrspace(5) %p2, align 1, !ptx.loc !8
  %p27 = load i1, ptr addrspace(5) %p2, align 1, !ptx.loc !9
  br i1 %p27, label %guard.then8, label %guard.cont9

guard.then8:                                      ; preds = %"$L__BB0_2"
  br label %"$L__BB0_6"

guard.cont9:                                      ; preds = %"$L__BB0_2"
  %rd110 = load i64, ptr addrspace(5) %rd1, align 8, !ptx.loc !10
  %9 = inttoptr i64 %rd110 to ptr addrspace(1), !ptx.loc !10
  %10 = load volatile i32, ptr addrspace(1) %9, align 4, !ptx.loc !10
  store i32 %10, ptr addrspace(5) %r3, align 4, !ptx.loc !10
  %r311 = load i32, ptr addrspace(5) %r3, align 4, !ptx.loc !11
  %11 = icmp ne i32 %r311, 0, !ptx.loc !11
  store i1 %11, ptr addrspace(5) %p3, align 1, !ptx.loc !11
  %p312 = load i1, ptr addrspace(5) %p3, align 1, !ptx.loc !12
  br i1 %p312, label %guard.then13, label %guard.cont14

guard.then13:                                     ; preds = %guard.cont9
  br label %"$L__BB0_5"

guard.cont14:                                     ; preds = %guard.cont9
  br label %"$L__BB0_4"

"$L__BB0_4":                                      ; preds = %guard.then19, %guard.cont14
  store i32 100, ptr addrspace(5) %r4, align 4, !ptx.loc !13
  %r415 = load i32, ptr addrspace(5) %r4, align 4, !ptx.loc !14
  call void @__ptx_nanosleep(i32 %r415), !ptx.loc !14
  %rd116 = load i64, ptr addrspace(5) %rd1, align 8, !ptx.loc !15
  %12 = inttoptr i64 %rd116 to ptr addrspace(1), !ptx.loc !15
  %13 = load volatile i32, ptr addrspace(1) %12, align 4, !ptx.loc !15
  store i32 %13, ptr addrspace(5) %r5, align 4, !ptx.loc !15
  %r517 = load i32, ptr addrspace(5) %r5, align 4, !ptx.loc !16
  %14 = icmp eq i32 %r517, 0, !ptx.loc !16
  store i1 %14, ptr addrspace(5) %p4, align 1, !ptx.loc !16
  %p418 = load i1, ptr addrspace(5) %p4, align 1, !ptx.loc !17
  br i1 %p418, label %guard.then19, label %guard.cont20

guard.then19:                                     ; preds = %"$L__BB0_4"
  br label %"$L__BB0_4"

guard.cont20:                                     ; preds = %"$L__BB0_4"
  br label %"$L__BB0_5"

"$L__BB0_5":                                      ; preds = %guard.cont20, %guard.then13
  %rd221 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !18
  %15 = inttoptr i64 %rd221 to ptr, !ptx.loc !18
  %16 = addrspacecast ptr %15 to ptr addrspace(1), !ptx.loc !18
  %17 = ptrtoint ptr addrspace(1) %16 to i64, !ptx.loc !18
  store i64 %17, ptr addrspace(5) %rd4, align 8, !ptx.loc !18
  store i32 1, ptr addrspace(5) %r6, align 4, !ptx.loc !19
  %rd422 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !20
  %18 = inttoptr i64 %rd422 to ptr addrspace(1), !ptx.loc !20
  %r623 = load i32, ptr addrspace(5) %r6, align 4, !ptx.loc !20
  store i32 %r623, ptr addrspace(1) %18, align 4, !ptx.loc !20
  br label %"$L__BB0_6"

"$L__BB0_6":                                      ; preds = %"$L__BB0_5", %guard.then8
  ret void
}

define amdgpu_kernel void @_Z4copyPiPKi(i64 %_Z4copyPiPKi_param_0, i64 %_Z4copyPiPKi_param_1) #0 {
entry:
  %rd1 = alloca i64, align 8, addrspace(5)
  %rd2 = alloca i64, align 8, addrspace(5)
  %rd3 = alloca i64, align 8, addrspace(5)
  %rd4 = alloca i64, align 8, addrspace(5)
  %r1 = alloca i32, align 4, addrspace(5)
  %rd5 = alloca i64, align 8, addrspace(5)
  %rd6 = alloca i64, align 8, addrspace(5)
  %r2 = alloca i32, align 4, addrspace(5)
  %rd7 = alloca i64, align 8, addrspace(5)
  %cc.cf = alloca i1, align 1, addrspace(5)
  store i1 false, ptr addrspace(5) %cc.cf, align 1
  %_Z4copyPiPKi_param_0.addr = alloca i64, align 8, addrspace(5)
  store i64 %_Z4copyPiPKi_param_0, ptr addrspace(5) %_Z4copyPiPKi_param_0.addr, align 8
  %_Z4copyPiPKi_param_1.addr = alloca i64, align 8, addrspace(5)
  store i64 %_Z4copyPiPKi_param_1, ptr addrspace(5) %_Z4copyPiPKi_param_1.addr, align 8
  br label %body

body:                                             ; preds = %entry
  %0 = load i64, ptr addrspace(5) %_Z4copyPiPKi_param_0.addr, align 8, !ptx.loc !21
  store i64 %0, ptr addrspace(5) %rd1, align 8, !ptx.loc !21
  %1 = load i64, ptr addrspace(5) %_Z4copyPiPKi_param_1.addr, align 8, !ptx.loc !22
  store i64 %1, ptr addrspace(5) %rd2, align 8, !ptx.loc !22
  %rd11 = load i64, ptr addrspace(5) %rd1, align 8, !ptx.loc !23
  %2 = inttoptr i64 %rd11 to ptr, !ptx.loc !23
  %3 = addrspacecast ptr %2 to ptr addrspace(1), !ptx.loc !23
  %4 = ptrtoint ptr addrspace(1) %3 to i64, !ptx.loc !23
  store i64 %4, ptr addrspace(5) %rd3, align 8, !ptx.loc !23
  %rd22 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !24
  %5 = inttoptr i64 %rd22 to ptr, !ptx.loc !24
  %6 = addrspacecast ptr %5 to ptr addrspace(1), !ptx.loc !24
  %7 = ptrtoint ptr addrspace(1) %6 to i64, !ptx.loc !24
  store i64 %7, ptr addrspace(5) %rd4, align 8, !ptx.loc !24
  %8 = call i32 @__ptx_sreg_tid_x(), !ptx.loc !25
  store i32 %8, ptr addrspace(5) %r1, align 4, !ptx.loc !25
  %r13 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !26
  %9 = zext i32 %r13 to i64, !ptx.loc !26
  %10 = mul i64 %9, 4, !ptx.loc !26
  store i64 %10, ptr addrspace(5) %rd5, align 8, !ptx.loc !26
  %rd44 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !27
  %rd55 = load i64, ptr addrspace(5) %rd5, align 8, !ptx.loc !27
  %11 = add i64 %rd44, %rd55, !ptx.loc !27
  store i64 %11, ptr addrspace(5) %rd6, align 8, !ptx.loc !27
  %rd66 = load i64, ptr addrspace(5) %rd6, align 8, !ptx.loc !28
  %12 = inttoptr i64 %rd66 to ptr addrspace(1), !ptx.loc !28
  %13 = load i32, ptr addrspace(1) %12, align 4, !ptx.loc !28
  store i32 %13, ptr addrspace(5) %r2, align 4, !ptx.loc !28
  %rd37 = load i64, ptr addrspace(5) %rd3, align 8, !ptx.loc !29
  %rd58 = load i64, ptr addrspace(5) %rd5, align 8, !ptx.loc !29
  %14 = add i64 %rd37, %rd58, !ptx.loc !29
  store i64 %14, ptr addrspace(5) %rd7, align 8, !ptx.loc !29
  %rd79 = load i64, ptr addrspace(5) %rd7, align 8, !ptx.loc !30
  %15 = inttoptr i64 %rd79 to ptr addrspace(1), !ptx.loc !30
  %r210 = load i32, ptr addrspace(5) %r2, align 4, !ptx.loc !30
  store i32 %r210, ptr addrspace(1) %15, align 4, !ptx.loc !30
  ret void
}

; Function Attrs: nounwind
declare i32 @__ptx_sreg_tid_x() #1

; Function Attrs: nounwind
declare void @__ptx_nanosleep(i32) #1

attributes #0 = { "ptx.kernel" }
attributes #1 = { nounwind }

!0 = !{i32 25, i32 2}
!1 = !{i32 26, i32 2}
!2 = !{i32 27, i32 2}
!3 = !{i32 28, i32 2}
!4 = !{i32 29, i32 2}
!5 = !{i32 30, i32 2}
!6 = !{i32 32, i32 2}
!7 = !{i32 33, i32 2}
!8 = !{i32 36, i32 2}
!9 = !{i32 37, i32 2}
!10 = !{i32 39, i32 2}
!11 = !{i32 40, i32 2}
!12 = !{i32 41, i32 2}
!13 = !{i32 44, i32 2}
!14 = !{i32 46, i32 2}
!15 = !{i32 48, i32 2}
!16 = !{i32 49, i32 2}
!17 = !{i32 50, i32 2}
!18 = !{i32 53, i32 2}
!19 = !{i32 54, i32 2}
!20 = !{i32 55, i32 2}
!21 = !{i32 71, i32 2}
!22 = !{i32 72, i32 2}
!23 = !{i32 73, i32 2}
!24 = !{i32 74, i32 2}
!25 = !{i32 75, i32 2}
!26 = !{i32 76, i32 2}
!27 = !{i32 77, i32 2}
!28 = !{i32 78, i32 2}
!29 = !{i32 79, i32 2}
!30 = !{i32 80, i32 2}
