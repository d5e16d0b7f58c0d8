//===- core/PrintfFifo.cpp - decoding the device printf FIFO ------------------===//
#include "PrintfFifo.h"

#include "emu/Emu.h"
#include "support/Contract.h"

#include <algorithm>
#include <cstring>

namespace runtime {

PrintfDrain decodePrintfFifo(llvm::ArrayRef<uint8_t> Buffer, const ReadDeviceString &ReadString) {
  namespace rec = support::printfrec;
  PrintfDrain Out;
  if (Buffer.size() < rec::kHeaderBytes) return Out;
  uint64_t Capacity, Used;
  std::memcpy(&Capacity, Buffer.data(), 8);
  std::memcpy(&Used, Buffer.data() + 8, 8);
  // `used` counts every reservation, also those that did not fit.
  Used = std::min<uint64_t>({Used, Capacity, Buffer.size() - rec::kHeaderBytes});
  const uint8_t *D = Buffer.data() + rec::kHeaderBytes;
  uint64_t At = 0;
  for (; At + 8 <= Used;) {
    uint32_t Rec, Word;
    std::memcpy(&Rec, D + At, 4);
    std::memcpy(&Word, D + At + 4, 4);
    uint32_t FLen = Word & rec::kLengthMask;
    uint64_t FPad = (uint64_t(FLen) + 7) & ~7ull;
    if (!FLen || Rec < 8 + FPad || At + Rec > Used || D[At + 8 + FLen - 1] != 0) break;
    std::string Fmt(reinterpret_cast<const char *>(D + At + 8), FLen - 1);
    Out.text += emu::formatPrintfRecord(Fmt, D + At + 8 + FPad, Rec - 8 - FPad, ReadString);
    Out.assertion |= (Word & rec::kAssertFlag) != 0;
    ++Out.records;
    At += Rec;
  }
  Out.truncated = At < Used;
  return Out;
}

} // namespace runtime
