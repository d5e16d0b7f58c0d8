; ModuleID = 'tests/tools/vadd.ptx'
source_filename = "tests/tools/vadd.ptx"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @vadd(i64 %a, i64 %b, i64 %out, i32 %n) #0 {
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
  %cc.cf = alloca i1, align 1, addrspace(5)
  store i1 false, ptr addrspace(5) %cc.cf, align 1
  %a.addr = alloca i64, align 8, addrspace(5)
  store i64 %a, ptr addrspace(5) %a.addr, align 8
  %b.addr = alloca i64, align 8, addrspace(5)
  store i64 %b, ptr addrspace(5) %b.addr, align 8
  %out.addr = alloca i64, align 8, addrspace(5)
  store i64 %out, ptr addrspace(5) %out.addr, align 8
  %n.addr = alloca i32, align 4, addrspace(5)
  store i32 %n, ptr addrspace(5) %n.addr, align 4
  br label %body

body:                                             ; preds = %entry
  %0 = load i64, ptr addrspace(5) %a.addr, align 8, !ptx.loc !0
  store i64 %0, ptr addrspace(5) %rd1, align 8, !ptx.loc !0
  %1 = load i64, ptr addrspace(5) %b.addr, align 8, !ptx.loc !1
  store i64 %1, ptr addrspace(5) %rd2, align 8, !ptx.loc !1
  %2 = load i64, ptr addrspace(5) %out.addr, align 8, !ptx.loc !2
  store i64 %2, ptr addrspace(5) %rd3, align 8, !ptx.loc !2
  %3 = load i32, ptr addrspace(5) %n.addr, align 4, !ptx.loc !3
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
  %9 = icmp uge i32 %r14, %r25, !ptx.loc !8
  store i1 %9, ptr addrspace(5) %p1, align 1, !ptx.loc !8
  %p16 = load i1, ptr addrspace(5) %p1, align 1, !ptx.loc !9
  br i1 %p16, label %guard.then, label %guard.cont

guard.then:                                       ; preds = %body
  br label %"$L_done"

guard.cont:                                       ; preds = %body
  %r17 = load i32, ptr addrspace(5) %r1, align 4, !ptx.loc !10
  %10 = zext i32 %r17 to i64, !ptx.loc !10
  %11 = mul i64 %10, 4, !ptx.loc !10
  store i64 %11, ptr addrspace(5) %rd4, align 8, !ptx.loc !10
  %rd18 = load i64, ptr addrspace(5) %rd1, align 8, !ptx.loc !11
  %rd49 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !11
  %12 = add i64 %rd18, %rd49, !ptx.loc !11
  store i64 %12, ptr addrspace(5) %rd5, align 8, !ptx.loc !11
  %rd210 = load i64, ptr addrspace(5) %rd2, align 8, !ptx.loc !12
  %rd411 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !12
  %13 = add i64 %rd210, %rd411, !ptx.loc !12
  store i64 %13, ptr addrspace(5) %rd6, align 8, !ptx.loc !12
  %rd312 = load i64, ptr addrspace(5) %rd3, align 8, !ptx.loc !13
  %rd413 = load i64, ptr addrspace(5) %rd4, align 8, !ptx.loc !13
  %14 = add i64 %rd312, %rd413, !ptx.loc !13
  store i64 %14, ptr addrspace(5) %rd7, align 8, !ptx.loc !13
  %rd514 = load i64, ptr addrspace(5) %rd5, align 8, !ptx.loc !14
  %15 = inttoptr i64 %rd514 to ptr addrspace(1), !ptx.loc !14
  %16 = load i32, ptr addrspace(1) %15, align 4, !ptx.loc !14
  store i32 %16, ptr addrspace(5) %r3, align 4, !ptx.loc !14
  %rd615 = load i64, ptr addrspace(5) %rd6, align 8, !ptx.loc !15
  %17 = inttoptr i64 %rd615 to ptr addrspace(1), !ptx.loc !15
  %18 = load i32, ptr addrspace(1) %17, align 4, !ptx.loc !15
  store i32 %18, ptr addrspace(5) %r4, align 4, !ptx.loc !15
  %r316 = load i32, ptr addrspace(5) %r3, align 4, !ptx.loc !16
  %r417 = load i32, ptr addrspace(5) %r4, align 4, !ptx.loc !16
  %19 = add i32 %r316, %r417, !ptx.loc !16
  store i32 %19, ptr addrspace(5) %r5, align 4, !ptx.loc !16
  %rd718 = load i64, ptr addrspace(5) %rd7, align 8, !ptx.loc !17
  %20 = inttoptr i64 %rd718 to ptr addrspace(1), !ptx.loc !17
  %r519 = load i32, ptr addrspace(5) %r5, align 4, !ptx.loc !17
  store i32 %r519, ptr addrspace(1) %20, align 4, !ptx.loc !17
  br label %"$L_done"

"$L_done":                                        ; preds = %guard.cont, %guard.then
  ret void
}

; Function Attrs: nounwind
declare i32 @__ptx_sreg_ctaid_x() #1

; Function Attrs: nounwind
declare i32 @__ptx_sreg_ntid_x() #1

; Function Attrs: nounwind
declare i32 @__ptx_sreg_tid_x() #1

attributes #0 = { "ptx.kernel" }
attributes #1 = { nounwind }

!0 = !{i32 12, i32 2}
!1 = !{i32 13, i32 2}
!2 = !{i32 14, i32 2}
!3 = !{i32 15, i32 2}
!4 = !{i32 16, i32 2}
!5 = !{i32 17, i32 2}
!6 = !{i32 18, i32 2}
!7 = !{i32 19, i32 2}
!8 = !{i32 20, i32 2}
!9 = !{i32 21, i32 2}
!10 = !{i32 22, i32 2}
!11 = !{i32 23, i32 2}
!12 = !{i32 24, i32 2}
!13 = !{i32 25, i32 2}
!14 = !{i32 26, i32 2}
!15 = !{i32 27, i32 2}
!16 = !{i32 28, i32 2}
!17 = !{i32 29, i32 2}
