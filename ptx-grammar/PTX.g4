// PTX.g4 - ANTLR4 grammar of the PTX ISA 9.0 textual syntax (module
// directives, declarations, function bodies, debug sections).
//
// Design: the grammar is generic where PTX is generic. An instruction is
// `guard? OPCODE (.modifier)* operands ;` - modifiers are DOTWORD tokens in
// any order, validated later against the instruction table in ptx-parser
// (InstrTable.cpp), never hard-coded per opcode here. Declarations likewise
// accept a list of attributes (types, vector widths, .align N, .ptr, spaces,
// .attribute(...)) that the IR builder checks. The grammar is LL(1) (the
// generated parser contains no adaptivePredict call; labels and instructions
// share one alternative for that reason), so ANTLR's SLL stage is a plain
// recursive descent; the driver falls back to full LL only if SLL reports a
// syntax error. Directive keywords that are also instruction modifiers
// (.global, .shared, .const, .local, .param, .tex, .weak) are accepted in the
// modifier position. Single-token choices (modifiers, operand atoms) are
// inlined so they cost no parse-tree context.
grammar PTX;

// ---------------------------------------------------------------- module --
ptxModule : moduleItem* EOF ;

moduleItem
  : KW_VERSION FLOAT                                           # versionDir
  | KW_TARGET IDENT (',' IDENT)*                               # targetDir
  | KW_ADDRESS_SIZE INT                                        # addressSizeDir
  | KW_FILE INT STRING (',' INT ',' INT)?                      # fileDir
  | KW_SECTION DOTWORD '{' sectionLine* '}'                    # sectionDir
  | KW_PRAGMA STRING (',' STRING)* ';'                         # modulePragma
  | linkage* (functionDecl | varDecl)                       # topDecl
  ;

linkage : KW_VISIBLE | KW_EXTERN | KW_WEAK | KW_COMMON ;

// ------------------------------------------------------------- functions --
functionDecl
  : (KW_ENTRY | KW_FUNC) attributeSpec* ('(' paramList ')')? IDENT ('(' paramList ')')?
    funcDirective* (block | ';')
  ;

paramList : (paramDecl (',' paramDecl)*)? ;

paramDecl : (KW_PARAM | KW_REG) declAttr* (IDENT | REGISTER) arraySpec* ;

funcDirective
  : KW_MAXNTID INT (',' INT)*                                  # maxntidDir
  | KW_REQNTID INT (',' INT)*                                  # reqntidDir
  | KW_REQNCTAPERCLUSTER INT (',' INT)*                        # reqnctaperclusterDir
  | KW_MINNCTAPERSM INT                                        # minnctapersmDir
  | KW_MAXNREG INT                                             # maxnregDir
  | KW_MAXCLUSTERRANK INT                                      # maxclusterrankDir
  | KW_EXPLICITCLUSTER                                         # explicitclusterDir
  | KW_NORETURN                                                # noreturnDir
  | KW_PRAGMA STRING (',' STRING)* ';'                         # funcPragma
  ;

// ---------------------------------------------------------- declarations --
stateSpace : KW_GLOBAL | KW_SHARED | KW_CONST | KW_LOCAL | KW_PARAM | KW_TEX | KW_REG ;

// Everything between the state space and the declared name.
declAttr
  : KW_ALIGN INT
  | attributeSpec
  | DOTWORD                       // type, .v2/.v4/.v8, .ptr, .texref, ...
  | KW_GLOBAL | KW_SHARED | KW_CONST | KW_LOCAL   // .ptr .global
  ;

attributeSpec : KW_ATTRIBUTE '(' attrItem (',' attrItem)* ')' ;
attrItem : DOTWORD ('(' INT (',' INT)* ')')? ;

varDecl : stateSpace declAttr* declarator (',' declarator)* ';' ;

declarator
  : (IDENT | REGISTER) ('<' INT '>' | arraySpec+)? ('=' initializer)?
  ;

arraySpec : '[' (INT | IDENT)? ']' ;   // IDENT: WARP_SZ

initializer
  : '{' (initializer (',' initializer)*)? '}'
  | constExpr
  ;

constExpr : constTerm (('+' | '-') constTerm)* ;

constTerm
  : '-'? (INT | FLOAT)
  | IDENT ('(' IDENT ')')?        // sym | generic(sym)
  | '(' constExpr ')'
  ;

// ---------------------------------------------------------- debug data --
sectionLine
  : IDENT ':'                                               # sectionLabel
  | DOTWORD sectionExpr (',' sectionExpr)*                  # sectionData
  ;

sectionExpr : sectionTerm (('+' | '-') sectionTerm)* ;
sectionTerm : INT | IDENT | DOTWORD ;

// ------------------------------------------------------- function bodies --
block : '{' statement* '}' ;

// `statement` and `operand` are the hot rules: they are deliberately not
// split into labeled alternatives (each label costs a second context object
// and a child copy per statement in the ANTLR C++ runtime) and the
// instruction tail is inlined. The IR builder dispatches on the first token.
statement
  : block
  // `IDENT ':'` is a label (a guard on it is rejected by the IR builder);
  // otherwise IDENT is the opcode followed by modifiers and operands. Merging
  // the two keeps the statement decision LL(1). Modifiers are single tokens:
  // DOTWORD or a directive keyword that is also an instruction modifier.
  | guard? IDENT
    ( ':' targetDirective?
    | (DOTWORD | KW_GLOBAL | KW_SHARED | KW_CONST | KW_LOCAL | KW_PARAM | KW_TEX | KW_WEAK)*
      (operand (',' operand)*)? ';'
    )
  | varDecl
  | KW_PRAGMA STRING (',' STRING)* ';'
  | KW_LOC INT INT INT (',' locAttr)*
  ;

targetDirective
  : KW_CALLPROTOTYPE ('(' paramList ')')? IDENT '(' paramList ')' KW_NORETURN? ';'   # callPrototype
  | KW_BRANCHTARGETS IDENT (',' IDENT)* ';'                 # branchTargets
  | KW_CALLTARGETS IDENT (',' IDENT)* ';'                   # callTargets
  ;

locAttr
  : IDENT (IDENT (('+' | '-') INT)? | INT INT INT)          // function_name $L__x | inlined_at 1 18 5
  ;

guard : '@' '!'? (REGISTER | IDENT) ;

// Operands are kept flat (one rule, terminals as children) so the IR builder
// walks them without deep context chains.
operand
  : '{' operand (',' operand)* '}'                          // vector
  | '[' operand (',' operand)* ']'                          // address
  | '(' (operand (',' operand)*)? ')'                       // call argument list
  | ('-' | '!' | '~')? (REGISTER | IDENT | INT | FLOAT)    // expression
    (('+' | '-') '-'? (REGISTER | IDENT | INT | FLOAT))*
    ('|' (REGISTER | IDENT | INT | FLOAT))?
  ;

// ---------------------------------------------------------------- lexer --
KW_VERSION : '.version' ;
KW_TARGET : '.target' ;
KW_ADDRESS_SIZE : '.address_size' ;
KW_FILE : '.file' ;
KW_LOC : '.loc' ;
KW_SECTION : '.section' ;
KW_PRAGMA : '.pragma' ;
KW_VISIBLE : '.visible' ;
KW_EXTERN : '.extern' ;
KW_WEAK : '.weak' ;
KW_COMMON : '.common' ;
KW_ENTRY : '.entry' ;
KW_FUNC : '.func' ;
KW_GLOBAL : '.global' ;
KW_SHARED : '.shared' ;
KW_CONST : '.const' ;
KW_LOCAL : '.local' ;
KW_PARAM : '.param' ;
KW_TEX : '.tex' ;
KW_REG : '.reg' ;
KW_ALIGN : '.align' ;
KW_ATTRIBUTE : '.attribute' ;
KW_MAXNTID : '.maxntid' ;
KW_REQNTID : '.reqntid' ;
KW_REQNCTAPERCLUSTER : '.reqnctapercluster' ;
KW_MINNCTAPERSM : '.minnctapersm' ;
KW_MAXNREG : '.maxnreg' ;
KW_MAXCLUSTERRANK : '.maxclusterrank' ;
KW_EXPLICITCLUSTER : '.explicitcluster' ;
KW_NORETURN : '.noreturn' ;
KW_CALLPROTOTYPE : '.callprototype' ;
KW_CALLTARGETS : '.calltargets' ;
KW_BRANCHTARGETS : '.branchtargets' ;

// `.L2::cache_hint`, `.shared::cta`, `.b32`, `.m16n8k16`, `.debug_info`, `.2d`.
DOTWORD : '.' [a-zA-Z0-9_] [a-zA-Z0-9_$]* ('::' [a-zA-Z0-9_]+)* ;

// `%r12`, `%tid.x`, `%envreg3`; the optional component is a vector or
// special-register selector.
REGISTER : '%' [a-zA-Z0-9_$]+ ('.' [a-zA-Z0-9_]+)? ;

IDENT : [a-zA-Z_$] [a-zA-Z0-9_$]* ;

// 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits), decimal floats.
FLOAT
  : '0' [fF] HEX HEX HEX HEX HEX HEX HEX HEX
  | '0' [dD] HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX
  | [0-9]+ '.' [0-9]* EXPONENT?
  | [0-9]+ EXPONENT
  ;

INT
  : '0' [xX] HEX+ 'U'?
  | '0' [bB] [01]+ 'U'?
  | [0-9]+ 'U'?
  ;

fragment HEX : [0-9a-fA-F] ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;

STRING : '"' (~["\\\r\n] | '\\' .)* '"' ;

LBRACE : '{' ; RBRACE : '}' ; LBRACK : '[' ; RBRACK : ']' ;
LPAREN : '(' ; RPAREN : ')' ; LT : '<' ; GT : '>' ;
SEMI : ';' ; COMMA : ',' ; COLON : ':' ; AT : '@' ; BANG : '!' ;
PLUS : '+' ; MINUS : '-' ; PIPE : '|' ; EQUALS : '=' ; TILDE : '~' ;

WS : [ \t\r\n]+ -> skip ;
LINE_COMMENT : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;

// Anything else becomes a token the parser rejects with a located error.
ERROR_CHAR : . ;

// NOTE: ptx-parser/lib/FastLexer.cpp implements exactly these lexer rules by
// hand for speed; the unit test FastLexer.MatchesAntlrLexer compares the two
// token streams on real and mutated PTX. Change both together.
