//===- Ops.h - declarations of every opcode handler (from Opcodes.def) -*- C++ -*-===//
#pragma once

#include "OpUtil.h"

#include <algorithm>
#include <limits>

namespace isaemu::detail {
#define ISA_OP(NAME, FAMILY, HANDLER) void HANDLER(Wave &, const Inst &);
#include "../Opcodes.def"
} // namespace isaemu::detail
