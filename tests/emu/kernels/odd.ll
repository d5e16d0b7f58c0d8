; Hand-written AMDGPU IR for amdgpu-emu odd-width integer tests (OddInts.cpp):
; the forms LLVM's optimiser produces -- bitcast <4 x i1> to i4 + icmp of the
; mask (any-of over four fcmps, from f64 complex arithmetic), i24/i48 from
; merged narrow loads, <3 x i7>, and sdiv/ashr/sext/sitofp/icmp slt of odd
; widths, loads/stores of i24 and i4. Per lane i, inputs a = pa[i], b = pb[i]
; (u64); outputs out[i*12 + 0..11] (u64), see EmuOdd.OddWidthIntegers.
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i4 @llvm.ctpop.i4(i4)

define amdgpu_kernel void @odd(ptr addrspace(1) %pa, ptr addrspace(1) %pb, ptr addrspace(1) %out, ptr addrspace(1) %scratch) #0 {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %i = zext i32 %id to i64
  %ga = getelementptr i64, ptr addrspace(1) %pa, i64 %i
  %gb = getelementptr i64, ptr addrspace(1) %pb, i64 %i
  %a = load i64, ptr addrspace(1) %ga
  %b = load i64, ptr addrspace(1) %gb
  %o = mul i64 %i, 12
  %go = getelementptr i64, ptr addrspace(1) %out, i64 %o
  ; 0: any-of / all-of over four fcmps of the bytes of a as doubles (inf/NaN-style checks)
  %v = bitcast i64 %a to <4 x i16>
  %vd = uitofp <4 x i16> %v to <4 x double>
  %cmp = fcmp ogt <4 x double> %vd, <double 3.0e4, double 3.0e4, double 3.0e4, double 3.0e4>
  %m = bitcast <4 x i1> %cmp to i4
  %any = icmp ne i4 %m, 0
  %all = icmp eq i4 %m, -1
  %mz = zext i4 %m to i64
  %anyz = zext i1 %any to i64
  %allz = zext i1 %all to i64
  %pop = call i4 @llvm.ctpop.i4(i4 %m)
  %popz = zext i4 %pop to i64
  %s1 = shl i64 %anyz, 8
  %s2 = shl i64 %allz, 9
  %s3 = shl i64 %popz, 12
  %r0a = or i64 %mz, %s1
  %r0b = or i64 %r0a, %s2
  %r0 = or i64 %r0b, %s3
  store i64 %r0, ptr addrspace(1) %go
  ; 1: i4 -> <4 x i1> -> select per lane -> i4 again (round trip, inverted)
  %mi = xor i4 %m, 5
  %bv = bitcast i4 %mi to <4 x i1>
  %sel = select <4 x i1> %bv, <4 x i8> <i8 1, i8 2, i8 4, i8 8>, <4 x i8> zeroinitializer
  %selw = bitcast <4 x i8> %sel to i32
  %selz = zext i32 %selw to i64
  %g1 = getelementptr i64, ptr addrspace(1) %go, i64 1
  store i64 %selz, ptr addrspace(1) %g1
  ; 2: i24 arithmetic: (a24 * b24 + 0xfffff) wraps at 24 bits
  %a24 = trunc i64 %a to i24
  %b24 = trunc i64 %b to i24
  %p24 = mul i24 %a24, %b24
  %q24 = add i24 %p24, 1048575
  %r2 = zext i24 %q24 to i64
  %g2 = getelementptr i64, ptr addrspace(1) %go, i64 2
  store i64 %r2, ptr addrspace(1) %g2
  ; 3: sdiv / srem of i24 (signed from bit 23), sign-extended to i64
  %bnz = or i24 %b24, 1
  %d24 = sdiv i24 %a24, %bnz
  %r3 = sext i24 %d24 to i64
  %g3 = getelementptr i64, ptr addrspace(1) %go, i64 3
  store i64 %r3, ptr addrspace(1) %g3
  %e24 = srem i24 %a24, %bnz
  %r4 = sext i24 %e24 to i64
  %g4 = getelementptr i64, ptr addrspace(1) %go, i64 4
  store i64 %r4, ptr addrspace(1) %g4
  ; 5: i48: ashr by (b & 31), lshr, icmp slt/ult packed
  %a48 = trunc i64 %a to i48
  %b48 = trunc i64 %b to i48
  %sh = and i48 %b48, 31
  %as = ashr i48 %a48, %sh
  %r5 = zext i48 %as to i64
  %g5 = getelementptr i64, ptr addrspace(1) %go, i64 5
  store i64 %r5, ptr addrspace(1) %g5
  %lt = icmp slt i48 %a48, %b48
  %ult = icmp ult i48 %a48, %b48
  %ltz = zext i1 %lt to i64
  %ultz = zext i1 %ult to i64
  %ult2 = shl i64 %ultz, 1
  %r6 = or i64 %ltz, %ult2
  %g6 = getelementptr i64, ptr addrspace(1) %go, i64 6
  store i64 %r6, ptr addrspace(1) %g6
  ; 7: <3 x i7>: add elementwise, then bitcast to i21
  %a21 = trunc i64 %a to i21
  %b21 = trunc i64 %b to i21
  %av = bitcast i21 %a21 to <3 x i7>
  %bv7 = bitcast i21 %b21 to <3 x i7>
  %sv = add <3 x i7> %av, %bv7
  %s21 = bitcast <3 x i7> %sv to i21
  %r7 = zext i21 %s21 to i64
  %g7 = getelementptr i64, ptr addrspace(1) %go, i64 7
  store i64 %r7, ptr addrspace(1) %g7
  ; 8: sitofp i24 -> double, stored as bits
  %f = sitofp i24 %a24 to double
  %fb = bitcast double %f to i64
  %g8 = getelementptr i64, ptr addrspace(1) %go, i64 8
  store i64 %fb, ptr addrspace(1) %g8
  ; 9: store i24 + load i24 through scratch (3 bytes; the 4th byte is left alone)
  %gs = getelementptr i32, ptr addrspace(1) %scratch, i64 %i
  store i32 -1, ptr addrspace(1) %gs
  store i24 %q24, ptr addrspace(1) %gs
  %w = load i32, ptr addrspace(1) %gs
  %l24 = load i24, ptr addrspace(1) %gs
  %wz = zext i32 %w to i64
  %g9 = getelementptr i64, ptr addrspace(1) %go, i64 9
  store i64 %wz, ptr addrspace(1) %g9
  %lz = zext i24 %l24 to i64
  %g10 = getelementptr i64, ptr addrspace(1) %go, i64 10
  store i64 %lz, ptr addrspace(1) %g10
  ; 11: trunc to i4 with sext back to i64 (bit 3 is the sign)
  %t4 = trunc i64 %b to i4
  %x4 = sext i4 %t4 to i64
  %g11 = getelementptr i64, ptr addrspace(1) %go, i64 11
  store i64 %x4, ptr addrspace(1) %g11
  ret void
}

attributes #0 = { "target-cpu"="gfx1100" }
