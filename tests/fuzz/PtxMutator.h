//===- PtxMutator.h - structure-aware mutations of PTX text -----*- C++ -*-===//
//
// libFuzzer's byte-level mutations mostly produce PTX that fails to lex, so
// the translation fuzzer mutates at the level PTX is written in: lines
// (delete, duplicate, swap, move an instruction to another place) and tokens
// inside a line (swap two operands, replace a type or modifier by another,
// replace a number by an interesting one, replace a register by another
// register of the file, replace an opcode by another opcode seen in the
// file). Each call applies 1-4 such edits chosen by a seeded PRNG, so a run
// is reproducible from libFuzzer's seed. Byte-level mutation
// (LLVMFuzzerMutate) is kept for 1 in 8 calls.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ptxfuzz {

/// Mutates Text in place with 1-4 structural edits; Seed drives every choice.
void mutatePTX(std::string &Text, unsigned Seed);

/// Crosses two PTX texts: the header and first half of A's lines with B's
/// second half (splices kernels from different seeds).
std::string crossOverPTX(const std::string &A, const std::string &B, unsigned Seed);

} // namespace ptxfuzz
