# Makes the small fonts of FeatureGateTests and DirectShapingTests (run from the package root; needs fontTools).
# Each shares a lookup of a candidate feature with another feature: numr (on only around U+2044),
# rvrn (applied in a stage of its own) and salt (an alternate picked by the mask's value).
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
import sys
def build(path, fea, extra=(), mapped=None):
    mapped=mapped or {}
    names=['.notdef','space','a','b','c','d','one','two','fraction','x']+list(extra)+list(mapped.values())
    fb=FontBuilder(1000,isTTF=True); fb.setupGlyphOrder(names)
    cmap={0x20:'space',ord('a'):'a',ord('b'):'b',ord('c'):'c',ord('d'):'d',ord('1'):'one',ord('2'):'two',0x2044:'fraction',ord('x'):'x'}
    cmap.update(mapped)
    fb.setupCharacterMap(cmap)
    pen=TTGlyphPen(None); pen.moveTo((0,0));pen.lineTo((100,0));pen.lineTo((100,100));pen.closePath(); g=pen.glyph()
    fb.setupGlyf({n:g for n in names})
    fb.setupHorizontalMetrics({n:(500+10*i,0) for i,n in enumerate(names)})
    fb.setupHorizontalHeader(ascent=800,descent=-200)
    fb.setupNameTable({'familyName':'T','styleName':'R'}); fb.setupOS2(); fb.setupPost()
    addOpenTypeFeaturesFromString(fb.font, fea)
    fb.save(path)
build('Tests/ShapingAcceleratorTests/Fixtures/gates/frac.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup L { sub a by b; } L;
lookup M { sub x x by d; } M;
feature liga { lookup L; lookup M; } liga;
feature numr { lookup L; } numr;
''')
build('Tests/ShapingAcceleratorTests/Fixtures/gates/rvrn.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup L { sub a by b; sub b by c; } L;
lookup M { sub x x by d; } M;
feature rvrn { lookup L; } rvrn;
feature ccmp { lookup L; lookup M; } ccmp;
''')
build('Tests/ShapingAcceleratorTests/Fixtures/gates/alt.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup L { sub a from [b c d]; } L;
lookup M { sub x x by d; } M;
feature calt { lookup L; lookup M; } calt;
feature salt { lookup L; } salt;
''')
# numr makes a glyph calt needs (one.numr, which no character maps to); numr acts only beside
# U+2044 (HarfBuzz needs numr and dnom for that), which must keep calt on.
build('Tests/ShapingAcceleratorTests/Fixtures/gates/fraction.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup N { sub one by one.numr; } N;
lookup D { sub two by two.dnom; } D;
lookup C { sub one.numr' fraction by d; } C;
feature numr { lookup N; } numr;
feature dnom { lookup D; } dnom;
feature calt { lookup C; } calt;
''', extra=('one.numr', 'two.dnom'))

# Direct shaping (DirectShapingTests): pair kerning the way HarfBuzz applies it.
# pairorder: a class-pair subtable that covers `a` but lists no class for `b` comes before a
# glyph-pair subtable with a b -100 (does the zero of class 0 stop the search?), and a second
# kerning lookup adds to the first.
def reorder(path, fea, extra=(), reverse_first=False, gdef=None):
    build(path, fea, extra)
    from fontTools.ttLib import TTFont
    f = TTFont(path)
    if reverse_first:
        f['GPOS'].table.LookupList.Lookup[0].SubTable.reverse()
    f.save(path)
reorder('Tests/ShapingAcceleratorTests/Fixtures/gates/pairorder.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup K1 { pos a b -100; pos [a d] [c x] -50; } K1;
lookup K2 { pos a b -7; pos c a 13; } K2;
feature kern { lookup K1; lookup K2; } kern;
''', reverse_first=True)
# second: a pair that moves the second glyph too (HarfBuzz then skips it as a first glyph).
build('Tests/ShapingAcceleratorTests/Fixtures/gates/second.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup K { pos a <0 0 -30 0> b <0 0 -20 0>; pos b c -11; } K;
lookup L { pos c d -5; } L;
feature kern { lookup K; lookup L; } kern;
''')
# marks: x is a mark (GDEF) attached to a and b; c is classed a ligature, which the kerning
# lookup (ignoring ligatures) skips.
build('Tests/ShapingAcceleratorTests/Fixtures/gates/marks.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
markClass x <anchor 50 0> @TOP;
lookup M { pos base [a b] <anchor 250 700> mark @TOP; } M;
lookup K { lookupflag IgnoreLigatures; pos a c -40; pos c d -9; pos a d -3; } K;
feature mark { lookup M; } mark;
feature kern { lookup K; } kern;
table GDEF { GlyphClassDef [a b d one two space], [c], [x], ; } GDEF;
''')
# fracshared: numr's lookup is shared with sups (off by default): it must act only beside U+2044,
# not on every digit of a run shaped directly.
build('Tests/ShapingAcceleratorTests/Fixtures/gates/fracshared.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup S { sub one by one.numr; } S;
lookup D { sub two by two.dnom; } D;
feature numr { lookup S; } numr;
feature sups { lookup S; } sups;
feature dnom { lookup D; } dnom;
''', extra=('one.numr', 'two.dnom'))

# Shapers other than the default one (DirectShapingTests). thaiam: the Thai shaper splits SARA AM
# into NIKHAHIT (a mark: no advance) and SARA AA, which a run shaped directly would not.
build('Tests/ShapingAcceleratorTests/Fixtures/gates/thaiam.ttf', '''
languagesystem DFLT dflt; languagesystem thai dflt;
lookup K { pos a b -10; } K;
feature kern { lookup K; } kern;
''', mapped={0x0E01: 'ko', 0x0E32: 'saraaa', 0x0E33: 'saraam', 0x0E4D: 'nikhahit'})
# indic: a font with a Devanagari table takes HarfBuzz's Indic shaper, which applies `half` only
# where a syllable has a half form (never to `a`): a run shaped directly would substitute it.
build('Tests/ShapingAcceleratorTests/Fixtures/gates/indic.ttf', '''
languagesystem DFLT dflt; languagesystem dev2 dflt;
lookup H { sub a by b; } H;
feature half { lookup H; } half;
''')
# hebrew: right to left, HarfBuzz draws a parenthesis as its mirror (here of another width),
# which a run shaped directly would not; left to right, it turns a Hebrew run around before its
# lookups, so `a b` forms the ligature of `b a`, which a feature gate reading the text would
# leave off.
build('Tests/ShapingAcceleratorTests/Fixtures/gates/hebrew.ttf', '''
languagesystem DFLT dflt; languagesystem hebr dflt;
lookup K { pos alef bet -20; pos a b -10; } K;
lookup L { sub b a by d; } L;
feature kern { lookup K; } kern;
feature liga { lookup L; } liga;
''', mapped={0x28: 'parenleft', 0x29: 'parenright', 0x5D0: 'alef', 0x5D1: 'bet'})
# context: a chained context (format 3) that matches `x a b` and does nothing keeps the one after
# it from substituting the `b` it covered (HarfBuzz goes on after a context's input); `d a b`
# lets it. (feaLib would pick format 1 for these rules: the subtables are written here.)
def chain3(backtrack, input, lookahead, records):
    from fontTools.ttLib.tables import otTables as ot
    def cov(glyphs):
        c = ot.Coverage(); c.glyphs = glyphs; return c
    st = ot.ChainContextSubst(); st.Format = 3
    st.BacktrackCoverage = [cov(g) for g in backtrack]; st.BacktrackGlyphCount = len(backtrack)
    st.InputCoverage = [cov(g) for g in input]; st.InputGlyphCount = len(input)
    st.LookAheadCoverage = [cov(g) for g in lookahead]; st.LookAheadGlyphCount = len(lookahead)
    st.SubstLookupRecord = []
    for seq, index in records:
        r = ot.SubstLookupRecord(); r.SequenceIndex = seq; r.LookupListIndex = index
        st.SubstLookupRecord.append(r)
    st.SubstCount = len(records)
    return st
path = 'Tests/ShapingAcceleratorTests/Fixtures/gates/context.ttf'
build(path, '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup S { sub b by c; } S;
lookup C { sub x a' b' by d; } C;
feature calt { lookup C; } calt;
''')
from fontTools.ttLib import TTFont
f = TTFont(path)
lookup = f['GSUB'].table.LookupList.Lookup[1]
lookup.LookupType = 6
lookup.SubTable = [chain3([['x']], [['a'], ['b']], [], []), chain3([['a']], [['b']], [], [(0, 0)])]
lookup.SubTableCount = 2
f.save(path)
# early: a required feature (here `calt`, which HarfBuzz runs in the stage of the features it
# adds itself) whose lookup, after `liga`'s, changes the ligature `liga` forms: a glyph a lookup
# made must be out of the early lookups' reach too.
path = 'Tests/ShapingAcceleratorTests/Fixtures/gates/early.ttf'
build(path, '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup L { sub a b by d; } L;
lookup R { sub d by c; } R;
feature liga { lookup L; } liga;
feature calt { lookup R; } calt;
''')
f = TTFont(path)
gsub = f['GSUB'].table
calt = [i for i, r in enumerate(gsub.FeatureList.FeatureRecord) if r.FeatureTag == 'calt']
for record in gsub.ScriptList.ScriptRecord:
    langsys = record.Script.DefaultLangSys
    langsys.ReqFeatureIndex = calt[0]
    langsys.FeatureIndex = [i for i in langsys.FeatureIndex if i != calt[0]]
    langsys.FeatureCount = len(langsys.FeatureIndex)
f.save(path)
# kern2: no GPOS, only a `kern` table whose one subtable is format 2 (kerning by classes: left
# classes a, b; right classes c, d), which HarfBuzz applies and a user's older font may hold.
import struct
from fontTools.ttLib import newTable
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_unkown
path = 'Tests/ShapingAcceleratorTests/Fixtures/gates/kern2.ttf'
build(path, 'languagesystem DFLT dflt; languagesystem latn dflt;')
f = TTFont(path)
gid = {n: i for i, n in enumerate(f.getGlyphOrder())}
row = 3 * 2  # three right classes (0: none), two bytes each
array_at = 6 + 8 + (4 + 4) + (4 + 4)
left = struct.pack('>HHHH', gid['a'], 2, array_at + 1 * row, array_at + 2 * row)
right = struct.pack('>HHHH', gid['c'], 2, 1 * 2, 2 * 2)
values = struct.pack('>9h', 0, 0, 0, 0, -50, -30, 0, 20, -10)
body = struct.pack('>HHHH', row, 6 + 8, 6 + 8 + len(left), array_at) + left + right + values
sub = KernTable_format_unkown(2)
sub.data = struct.pack('>HHBB', 0, 6 + len(body), 2, 1) + body
kern = newTable('kern')
kern.version = 0
kern.kernTables = [sub]
f['kern'] = kern
f.save(path)
# variable: a variable font (a weight axis; glyph a wider and moved at the heavy end) with GPOS
# kerning: Galley lays out its default instance, which every run must get as HarfBuzz gives it.
from fontTools.ttLib.tables.TupleVariation import TupleVariation
path = 'Tests/ShapingAcceleratorTests/Fixtures/gates/variable.ttf'
names = ['.notdef', 'space', 'a', 'b', 'c', 'd', 'one', 'two', 'fraction', 'x']
fb = FontBuilder(1000, isTTF=True); fb.setupGlyphOrder(names)
fb.setupCharacterMap({0x20: 'space', ord('a'): 'a', ord('b'): 'b', ord('c'): 'c', ord('d'): 'd',
                      ord('1'): 'one', ord('2'): 'two', 0x2044: 'fraction', ord('x'): 'x'})
pen = TTGlyphPen(None); pen.moveTo((0, 0)); pen.lineTo((100, 0)); pen.lineTo((100, 100)); pen.closePath()
g = pen.glyph()
fb.setupGlyf({n: g for n in names})
fb.setupHorizontalMetrics({n: (500 + 10 * i, 0) for i, n in enumerate(names)})
fb.setupHorizontalHeader(ascent=800, descent=-200)
fb.setupNameTable({'familyName': 'V', 'styleName': 'R'}); fb.setupOS2(); fb.setupPost()
fb.setupFvar(axes=[('wght', 100, 400, 900, 'Weight')], instances=[])
fb.setupGvar({'a': [TupleVariation({'wght': (0, 1.0, 1.0)},
                                   [(20, 0), (40, 0), (40, 10), (0, 0), (60, 0), (0, 0), (0, 0)])]})
addOpenTypeFeaturesFromString(fb.font, '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup K { pos a b -40; pos [c d] a -15; } K;
feature kern { lookup K; } kern;
''')
fb.save(path)
