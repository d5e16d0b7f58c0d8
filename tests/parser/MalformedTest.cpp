//===- MalformedTest.cpp - bad-input suite: text AND location of errors ---===//
//
// Each case is a small PTX module with one defect (truncation, mutated token,
// undefined name, type error, unknown opcode, bad modifier, duplicate
// definition). The test requires parse() to fail and to report exactly the
// expected `line:col: error: message` (other diagnostics may follow). The
// expected lines were written from the PTX rules, not copied from output.
//
//===----------------------------------------------------------------------===//
#include "ptx/Parser.h"

#include <gtest/gtest.h>

using namespace ptx;

namespace {

// Lines 1-3: header. Lines 4-10: kernel prologue. Body statements start on
// line 11, column 1.
const std::string kPrologue =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k()\n{\n"
    ".reg .b32 %r<4>;\n.reg .pred %p<2>;\n.reg .f32 %f<2>;\n.reg .b64 %rd<2>;\n.reg .s32 %s<2>;\n";

std::string body(const std::string &stmts) { return kPrologue + stmts + "\nret;\n}\n"; }

struct Case {
  const char *name;
  std::string src;
  const char *expected; // "line:col: error: message"
};

std::vector<Case> cases() {
  return {
      // Unknown opcodes and modifiers.
      {"unknown_opcode", body("frob.s32 %r1, %r2;"), "11:1: error: unknown instruction 'frob'"},
      {"unknown_modifier", body("add.sx32 %r1, %r2, %r3;"), "11:4: error: unknown modifier '.sx32' on 'add'"},
      {"modifier_not_valid_for_opcode", body("and.rn.b32 %r1, %r2, %r3;"),
       "11:4: error: modifier '.rn' is not valid for 'and'"},
      {"two_rounding_modes", body("add.rn.rz.f32 %f1, %f1, %f1;"),
       "11:7: error: conflicting modifiers '.rn' and '.rz' on 'add'"},
      {"approx_with_rounding", body("div.approx.rn.f32 %f1, %f1, %f1;"),
       "11:11: error: conflicting modifiers '.approx' and '.rn' on 'div'"},
      {"duplicate_modifier", body("bar.sync.sync 0;"), "11:9: error: duplicate modifier '.sync' on 'bar'"},
      {"two_spaces", body("ld.global.shared.u32 %r1, [%rd1];"),
       "11:10: error: conflicting modifiers '.global' and '.shared' on 'ld'"},
      {"too_many_types", body("add.s32.s32 %r1, %r2, %r3;"),
       "11:1: error: 'add.s32.s32' has 2 type modifiers, expected 1"},
      {"cvt_one_type", body("cvt.f32 %f1, %r1;"), "11:1: error: 'cvt.f32' has 1 type modifier, expected 2 to 3"},
      {"setp_without_compare", body("setp.s32 %p1, %r1, %r2;"),
       "11:1: error: 'setp.s32' requires a comparison operator"},
      {"atom_without_operation", body("atom.global.u32 %r1, [%rd1], %r2;"),
       "11:1: error: 'atom.global.u32' requires an operation (e.g. '.add')"},
      {"integer_mul_without_mode", body("mul.s32 %r1, %r2, %r3;"),
       "11:1: error: integer 'mul.s32' requires '.hi', '.lo' or '.wide'"},
      {"shfl_without_mode", body("shfl.sync.b32 %r1, %r2, 1, 31, -1;"),
       "11:1: error: 'shfl.sync.b32' requires a mode ('.up', '.down', '.bfly' or '.idx')"},
      // Operand counts and types.
      {"too_few_operands", body("add.s32 %r1, %r2;"), "11:1: error: 'add.s32' takes 3 operands, got 2"},
      {"register_width", body("add.s32 %r1, %rd1, %r2;"),
       "11:14: error: operand 2 of 'add.s32': '%rd1' is a 64-bit register, expected 32 bits"},
      {"int_register_for_float", body("add.f32 %f1, %s1, %f1;"),
       "11:14: error: operand 2 of 'add.f32': '%s1' is a .s32 register, incompatible with .f32"},
      {"float_register_for_int", body("add.s32 %r1, %f1, %r1;"),
       "11:14: error: operand 2 of 'add.s32': '%f1' is a .f32 register, incompatible with .s32"},
      {"predicate_as_value", body("add.s32 %r1, %p1, %r2;"),
       "11:14: error: operand 2 of 'add.s32': predicate register '%p1' used where a .s32 value is expected"},
      {"setp_destination_not_predicate", body("setp.eq.s32 %r1, %r2, %r3;"),
       "11:13: error: operand 1 of 'setp.eq.s32': '%r1' is a .b32 register, expected a .pred register"},
      {"selp_condition_not_predicate", body("selp.b32 %r1, %r2, %r3, %r0;"),
       "11:25: error: operand 4 of 'selp.b32': '%r0' is a .b32 register, expected a .pred register"},
      {"mul_wide_destination", body("mul.wide.s32 %r1, %r2, %r3;"),
       "11:14: error: operand 1 of 'mul.wide.s32': '%r1' is a 32-bit register, expected 64 bits"},
      {"ld_into_narrow_register", body("ld.global.u64 %r1, [%rd1];"),
       "11:15: error: operand 1 of 'ld.global.u64': '%r1' is a 32-bit register, expected at least 64 bits"},
      {"vector_width", body("ld.global.v4.f32 {%f1, %f1}, [%rd1];"),
       "11:18: error: vector operand has 2 elements, 'ld.global.v4.f32' expects 4"},
      {"guard_not_predicate", body("@%r1 bra $L__x;\n$L__x:"), "11:1: error: guard '%r1' is not a predicate register"},
      {"address_register_is_predicate", body("ld.global.u32 %r1, [%p1];"),
       "11:21: error: address register '%p1' must be 32 or 64 bits wide"},
      {"register_plus_register_address", body("ld.global.u32 %r1, [%rd1+%rd1];"),
       "11:26: error: only integer constants may be added to an operand"},
      // Undefined names.
      {"undeclared_register", body("add.s32 %r1, %r9, %r2;"), "11:14: error: use of undeclared register '%r9'"},
      {"undeclared_guard", body("@%q1 ret;"), "11:2: error: use of undeclared register '%q1'"},
      {"undeclared_label", body("bra $L__nowhere;"), "11:5: error: use of undeclared identifier '$L__nowhere'"},
      {"undeclared_symbol", body("mov.u64 %rd1, nosuchvar;"),
       "11:15: error: use of undeclared identifier 'nosuchvar'"},
      {"register_out_of_scope", body("{ .reg .b32 %t; mov.u32 %t, 1; }\nmov.u32 %r1, %t;"),
       "12:14: error: use of undeclared register '%t'"},
      {"bad_special_register_component", body("mov.u32 %r1, %tid.w;"),
       "11:14: error: invalid component '.w' for special register '%tid'"},
      {"undeclared_initializer_symbol",
       ".version 9.0\n.target sm_90\n.address_size 64\n.global .u64 p = generic(nothere);\n",
       "4:18: error: use of undeclared identifier 'nothere'"},
      // Duplicate definitions.
      {"duplicate_register_range", body(".reg .b32 %r<8>;"), "11:11: error: redefinition of register range '%r<>'"},
      {"duplicate_label", body("L1:\nL1:"), "12:1: error: redefinition of label 'L1'"},
      {"duplicate_global",
       ".version 9.0\n.target sm_90\n.address_size 64\n.global .u32 g;\n.global .u32 g;\n",
       "5:14: error: redefinition of 'g'"},
      {"duplicate_function_body",
       ".version 9.0\n.target sm_90\n.address_size 64\n.func f()\n{\nret;\n}\n.func f()\n{\nret;\n}\n",
       "8:1: error: redefinition of 'f'"},
      {"duplicate_parameter",
       ".version 9.0\n.target sm_90\n.address_size 64\n.entry k(.param .u32 a, .param .u32 a)\n{\nret;\n}\n",
       "4:37: error: redefinition of parameter 'a'"},
      // Mutated tokens and syntax.
      {"missing_comma", body("add.s32 %r1 %r2, %r3;"), "11:13: error: unexpected '%r2', expected ';' or ','"},
      {"missing_semicolon", "" + kPrologue + "ret\n}\n", "12:1: error: unexpected '}'"},
      {"invalid_character", body("add.s32 %r1, %r2, #;"), "11:19: error: invalid character '#'"},
      {"short_float_literal", body("mov.f32 %f1, 0f3F80;"), "11:15: error: unexpected 'f3F80', expected ';' or ','"},
      {"integer_too_large", body("mov.u64 %rd1, 0x1FFFFFFFFFFFFFFFF;"),
       "11:15: error: integer literal is too large for 64 bits"},
      {"label_with_guard", body("@%p1 L9:"), "11:1: error: a label cannot have a guard predicate"},
      {"reg_at_module_scope", ".version 9.0\n.target sm_90\n.address_size 64\n.reg .b32 %x;\n",
       "4:11: error: '.reg' variables are not allowed at module scope"},
      {"unterminated_string", body(".pragma \"nounroll;"), "11:9: error: invalid character '\"'"},
      {"nesting_too_deep", kPrologue + std::string(300, '{'), "11:256: error: brackets nested deeper than 256 levels"},
      {"missing_version", ".target sm_90\n.address_size 64\n", "1:1: error: missing '.version' directive"},
      {"missing_target", ".version 9.0\n.address_size 64\n", "1:1: error: missing '.target' directive"},
      // Truncations.
      {"truncated_target", ".version 9.0\n.target", "2:8: error: unexpected end of file, expected IDENT"},
      {"truncated_in_operands", kPrologue + "add.s32 %r1,", "11:13: error: unexpected end of file"},
      {"truncated_after_brace", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n",
       "6:1: error: unexpected end of file"},
      {"truncated_param_list", ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32",
       "4:30: error: unexpected end of file"},
  };
}

class Malformed : public ::testing::TestWithParam<Case> {};

TEST_P(Malformed, ReportsTextAndLocation) {
  const Case &c = GetParam();
  ParseResult r = parse(c.src, "m.ptx");
  ASSERT_FALSE(r.ok()) << "no error for:\n" << c.src;
  std::vector<std::string> got;
  for (const auto &d : r.diags.all()) {
    if (d.severity != Severity::Error) continue;
    got.push_back(std::to_string(d.line) + ":" + std::to_string(d.col) + ": error: " + d.message);
  }
  bool found = std::find(got.begin(), got.end(), c.expected) != got.end();
  std::string all;
  for (auto &g : got) all += "  " + g + "\n";
  EXPECT_TRUE(found) << "expected: " << c.expected << "\ngot:\n" << all;
  // Rendering includes the source line and a caret.
  std::string rendered = r.diags.render("m.ptx", c.src);
  EXPECT_NE(rendered.find("m.ptx:" + std::string(c.expected)), std::string::npos) << rendered;
  EXPECT_NE(rendered.find('^'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Suite, Malformed, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case> &i) { return std::string(i.param.name); });

TEST(MalformedRecovery, ReportsErrorsInEveryFunction) {
  std::string src = ".version 9.0\n.target sm_90\n.address_size 64\n"
                    ".func a()\n{\n.reg .b32 %r<2>;\nadd.s32 %r1, %r5, 1;\nret;\n}\n"
                    ".func b()\n{\n.reg .b32 %r<2>;\nfoo.b32 %r1;\nbra NOPE;\nret;\n}\n"
                    ".func c()\n{\nadd.s32 %r1 %r1;\nret;\n}\n"
                    ".func d()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, %r7;\nret;\n}\n";
  ParseResult r = parse(src, "m.ptx");
  std::vector<std::string> got;
  for (const auto &d : r.diags.all())
    got.push_back(std::to_string(d.line) + ":" + std::to_string(d.col) + ": " + d.message);
  std::string all;
  for (auto &g : got) all += "  " + g + "\n";
  for (const char *want : {"7:14: use of undeclared register '%r5'", "13:1: unknown instruction 'foo'",
                           "14:5: use of undeclared identifier 'NOPE'", "19:13: unexpected '%r1', expected ';' or ','",
                           "25:14: use of undeclared register '%r7'"})
    EXPECT_NE(std::find(got.begin(), got.end(), want), got.end()) << want << "\ngot:\n" << all;
  EXPECT_GE(r.diags.errorCount(), 5u);
}

TEST(MalformedRecovery, MaxErrorsBoundsTheList) {
  std::string stmts;
  for (int i = 0; i < 50; ++i) stmts += "frob.s32 %r1;\n";
  ParseOptions o;
  o.maxErrors = 10;
  ParseResult r = parse(body(stmts), "m.ptx", o);
  EXPECT_EQ(r.diags.errorCount(), 10u);
}

} // namespace
