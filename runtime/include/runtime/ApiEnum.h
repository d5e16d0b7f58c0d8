//===- runtime/ApiEnum.h - enum fields of structures the application filled in -*- C++ -*-===//
//
// CUDA's C enums (cudaGraphNodeType, cudaGraphConditionalNodeType, CUgraphNodeType, ...) have no
// fixed underlying type, so C++ gives each the range of its enumerators' bits, and loading an
// object of that type that holds a value outside it (garbage, or a value of a later CUDA
// version, in a structure the application filled in) is undefined behaviour; UBSan reports it
// ("load of value 9, which is not a valid value for type 'cudaGraphConditionalNodeType'",
// shim.graph_conditional's "bad type" case, session 9's sanitizer run). Such a field is read
// here as its bits and checked as an integer; the shim and the driver then refuse an unknown
// value with the API's error, as before.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstring>
#include <type_traits>

namespace runtime {

/// The value of the enum field F as an integer of its underlying type, read without loading F
/// as an enum.
template <class E> std::underlying_type_t<E> rawEnum(const E &F) {
  static_assert(std::is_enum_v<E>);
  std::underlying_type_t<E> V;
  std::memcpy(&V, &F, sizeof V);
  return V;
}

} // namespace runtime
