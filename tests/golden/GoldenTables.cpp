// GoldenTables.cpp -- manifest parsing (llvm::json) and zstd decompression of the golden tables.
// See GoldenTables.h; the format is documented in tests/golden/README.md.
#include "GoldenTables.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <zstd.h>

using llvm::createStringError;
using llvm::inconvertibleErrorCode;

namespace golden {

static llvm::Error err(const llvm::Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

static llvm::Expected<Form> parseForm(const llvm::json::Object &o, const std::string &family) {
  Form f;
  f.family = family;
  auto str = [&](const char *k) -> std::string {
    auto s = o.getString(k);
    return s ? s->str() : std::string();
  };
  f.name = str("name");
  f.entry = str("entry");
  if (f.name.empty() || f.entry.empty()) return err("form without name/entry in " + family);
  const auto *ins = o.getArray("inputs");
  const auto *outs = o.getArray("outputs");
  const auto *ob = o.getArray("output_bytes");
  if (!ins || !outs || !ob || outs->size() != ob->size())
    return err("form " + f.name + ": bad inputs/outputs");
  for (const auto &v : *ins) {
    auto s = v.getAsString();
    if (!s) return err("form " + f.name + ": input class not a string");
    const ClassInfo *c = findClass(s->str());
    if (!c) return err("form " + f.name + ": unknown input class " + *s);
    f.inputs.push_back(s->str());
    f.recipe.classes.push_back(c);
  }
  for (size_t j = 0; j < outs->size(); ++j) {
    auto s = (*outs)[j].getAsString();
    auto b = (*ob)[j].getAsInteger();
    if (!s || !b || (*b != 2 && *b != 4 && *b != 8))
      return err("form " + f.name + ": bad output description");
    f.outputs.push_back(s->str());
    f.outputBytes.push_back((unsigned)*b);
  }
  if (!parseRecipeKind(str("recipe"), f.recipe.kind)) return err("form " + f.name + ": bad recipe");
  f.recipe.seed = std::stoull(str("seed"), nullptr, 16);
  f.recipe.nrand = (uint64_t)o.getInteger("nrand").value_or(0);
  f.inputsHash = std::stoull(str("inputs_fnv1a64"), nullptr, 16);
  f.rows = (size_t)o.getInteger("rows").value_or(0);
  f.offset = (size_t)o.getInteger("offset").value_or(0);
  f.bytes = (size_t)o.getInteger("bytes").value_or(0);
  f.exact = o.getBoolean("exact").value_or(true);
  if (auto b = o.getNumber("ulp_bound")) f.ulpBound = *b;
  f.note = str("note");
  if (const auto *p = o.getArray("ptx"))
    for (const auto &v : *p)
      if (auto s = v.getAsString()) f.ptx.push_back(s->str());
  return f;
}

llvm::Expected<Manifest> loadManifest(const std::string &dataDir) {
  auto buf = llvm::MemoryBuffer::getFile(dataDir + "/manifest.json");
  if (!buf) return err("cannot read " + dataDir + "/manifest.json: " + buf.getError().message());
  auto val = llvm::json::parse((*buf)->getBuffer());
  if (!val) return val.takeError();
  const auto *root = val->getAsObject();
  if (!root) return err("manifest is not an object");
  Manifest m;
  if (root->getInteger("format").value_or(0) != 1) return err("unknown manifest format");
  if (auto s = root->getString("ptx_version")) m.ptxVersion = s->str();
  if (auto s = root->getString("target")) m.target = s->str();
  m.totalBytes = (size_t)root->getInteger("total_bytes").value_or(0);
  m.numForms = (size_t)root->getInteger("num_forms").value_or(0);
  const auto *fams = root->getArray("families");
  if (!fams) return err("manifest has no families");
  for (const auto &fv : *fams) {
    const auto *fo = fv.getAsObject();
    if (!fo) return err("family is not an object");
    Family fam;
    fam.name = fo->getString("family").value_or("").str();
    fam.ptxFile = fo->getString("ptx").value_or("").str();
    fam.dataFile = fo->getString("data").value_or("").str();
    fam.bytes = (size_t)fo->getInteger("bytes").value_or(0);
    const auto *forms = fo->getArray("forms");
    if (fam.name.empty() || fam.dataFile.empty() || !forms) return err("bad family entry");
    for (const auto &v : *forms) {
      const auto *o = v.getAsObject();
      if (!o) return err("form is not an object");
      auto f = parseForm(*o, fam.name);
      if (!f) return f.takeError();
      fam.forms.push_back(std::move(*f));
    }
    m.families.push_back(std::move(fam));
  }
  if (const auto *rej = root->getArray("rejected"))
    for (const auto &v : *rej)
      if (const auto *o = v.getAsObject())
        m.rejected.push_back(o->getString("name").value_or("").str() + ": " +
                             o->getString("ptxas").value_or("").str());
  return m;
}

llvm::Expected<std::vector<uint8_t>> loadFamilyData(const std::string &dataDir, const Family &fam) {
  const std::string path = dataDir + "/" + fam.dataFile;
  auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buf) return err("cannot read " + path + ": " + buf.getError().message());
  const void *src = (*buf)->getBufferStart();
  const size_t srcSize = (*buf)->getBufferSize();
  unsigned long long content = ZSTD_getFrameContentSize(src, srcSize);
  if (content == ZSTD_CONTENTSIZE_ERROR) return err(path + ": not a zstd frame");
  if (content != ZSTD_CONTENTSIZE_UNKNOWN && content != fam.bytes)
    return err(path + ": frame holds " + llvm::Twine(content) + " bytes, manifest says " +
               llvm::Twine(fam.bytes));
  std::vector<uint8_t> out(fam.bytes);
  // Streaming decompression: works whether or not the frame records its size.
  ZSTD_DCtx *dctx = ZSTD_createDCtx();
  ZSTD_inBuffer in{src, srcSize, 0};
  ZSTD_outBuffer ob{out.data(), out.size(), 0};
  size_t rc = 1;
  while (in.pos < in.size && rc != 0) {
    rc = ZSTD_decompressStream(dctx, &ob, &in);
    if (ZSTD_isError(rc)) {
      ZSTD_freeDCtx(dctx);
      return err(path + ": " + ZSTD_getErrorName(rc));
    }
    if (ob.pos == ob.size && rc != 0) {
      // Output full but the frame wants more: larger than the manifest says.
      uint8_t probe;
      ZSTD_outBuffer pb{&probe, 1, 0};
      size_t r2 = ZSTD_decompressStream(dctx, &pb, &in);
      if (!ZSTD_isError(r2) && pb.pos) {
        ZSTD_freeDCtx(dctx);
        return err(path + ": decompresses to more than " + llvm::Twine(fam.bytes) + " bytes");
      }
      rc = r2;
    }
  }
  ZSTD_freeDCtx(dctx);
  if (rc != 0 || ob.pos != out.size())
    return err(path + ": decompressed " + llvm::Twine(ob.pos) + " bytes, manifest says " +
               llvm::Twine(fam.bytes));
  return out;
}

}  // namespace golden
