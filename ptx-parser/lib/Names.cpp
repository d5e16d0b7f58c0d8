//===- Names.cpp - spelling tables for types, opcodes, modifiers ----------===//
//
// Maps between the enums generated from Types.def / Opcodes.def /
// Modifiers.def and their PTX spellings (without the leading dot), plus the
// small IR helpers that need those tables (Variable::sizeInBytes,
// Module::smVersion). The lookup tables are immutable function-local statics
// built on first use; modifier lookup is on the parser's hot path, so it uses
// a hash map keyed by string_view into the static spelling arrays.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include <array>
#include <charconv>
#include <unordered_map>

namespace ptx {
namespace {

constexpr std::string_view kTypeNames[] = {
    "",
#define PTX_TYPE(E, S, BITS) S,
#include "ptx/Types.def"
};
constexpr unsigned kTypeBits[] = {
    0,
#define PTX_TYPE(E, S, BITS) BITS,
#include "ptx/Types.def"
};
constexpr std::string_view kOpcodeNames[] = {
    "",
#define PTX_OPCODE(E, S) S,
#include "ptx/Opcodes.def"
};
constexpr std::string_view kModNames[] = {
    "",
#define PTX_MOD(E, S, CAT) S,
#include "ptx/Modifiers.def"
};
constexpr detail::ModCat kModCats[] = {
    detail::ModCat::Flag,
#define PTX_MOD(E, S, CAT) detail::ModCat::CAT,
#include "ptx/Modifiers.def"
};

template <typename E, size_t N>
const std::unordered_map<std::string_view, E> &buildMap(const std::string_view (&names)[N]) {
  // Not shared between instantiations with the same E: each caller has its own static.
  auto *m = new std::unordered_map<std::string_view, E>();
  m->reserve(N * 2);
  for (size_t i = 1; i < N; ++i) m->emplace(names[i], static_cast<E>(i));
  return *m;
}

} // namespace

std::string_view typeName(Type t) {
  auto i = static_cast<size_t>(t);
  return i < std::size(kTypeNames) ? kTypeNames[i] : std::string_view();
}
unsigned typeBits(Type t) {
  auto i = static_cast<size_t>(t);
  return i < std::size(kTypeBits) ? kTypeBits[i] : 0;
}
std::optional<Type> typeFromName(std::string_view s) {
  static const auto &m = buildMap<Type>(kTypeNames);
  auto it = m.find(s);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

std::string_view opcodeName(Opcode op) {
  auto i = static_cast<size_t>(op);
  return i < std::size(kOpcodeNames) ? kOpcodeNames[i] : std::string_view();
}
std::optional<Opcode> opcodeFromName(std::string_view s) {
  static const auto &m = buildMap<Opcode>(kOpcodeNames);
  auto it = m.find(s);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

std::string_view modName(Mod m) {
  auto i = static_cast<size_t>(m);
  return i < std::size(kModNames) ? kModNames[i] : std::string_view();
}
std::optional<Mod> modFromName(std::string_view s) {
  static const auto &m = buildMap<Mod>(kModNames);
  auto it = m.find(s);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

std::string_view spaceName(Space s) {
  switch (s) {
  case Space::None: return "";
  case Space::Reg: return "reg";
  case Space::SReg: return "sreg";
  case Space::Const: return "const";
  case Space::Global: return "global";
  case Space::Local: return "local";
  case Space::Param: return "param";
  case Space::Shared: return "shared";
  case Space::SharedCluster: return "shared::cluster";
  case Space::Tex: return "tex";
  case Space::Generic: return "generic";
  }
  return "";
}

uint64_t Variable::sizeInBytes() const {
  uint64_t elem = (typeBits(type) + 7) / 8;
  if (type == Type::Pred) elem = 1;
  if (vecWidth) elem *= vecWidth;
  for (uint64_t d : dims) {
    if (d == 0) return 0;
    elem *= d;
  }
  return elem;
}

uint32_t Module::smVersion() const {
  for (const auto &t : target) {
    std::string_view s = t;
    if (s.substr(0, 3) != "sm_" && s.substr(0, 8) != "compute_") continue;
    s.remove_prefix(s[0] == 's' ? 3 : 8);
    uint32_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc()) return v;
  }
  return 0;
}

namespace detail {
ModCat modCategory(Mod m) {
  auto i = static_cast<size_t>(m);
  return i < std::size(kModCats) ? kModCats[i] : ModCat::Flag;
}
size_t numMods() { return std::size(kModNames); }
size_t numOpcodes() { return std::size(kOpcodeNames); }
std::string_view modCategoryName(ModCat c) {
  switch (c) {
#define PTX_MODCAT(C) case ModCat::C: return #C;
#include "ModCats.def"
  }
  return "";
}
} // namespace detail
} // namespace ptx
