# Makes the three small fonts of FeatureGateTests (run from the package root; needs fontTools).
# Each shares a lookup of a candidate feature with another feature: numr (on only around U+2044),
# rvrn (applied in a stage of its own) and salt (an alternate picked by the mask's value).
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
import sys
def build(path, fea, extra=()):
    names=['.notdef','space','a','b','c','d','one','two','fraction','x']+list(extra)
    fb=FontBuilder(1000,isTTF=True); fb.setupGlyphOrder(names)
    cmap={0x20:'space',ord('a'):'a',ord('b'):'b',ord('c'):'c',ord('d'):'d',ord('1'):'one',ord('2'):'two',0x2044:'fraction',ord('x'):'x'}
    fb.setupCharacterMap(cmap)
    pen=TTGlyphPen(None); pen.moveTo((0,0));pen.lineTo((100,0));pen.lineTo((100,100));pen.closePath(); g=pen.glyph()
    fb.setupGlyf({n:g for n in names})
    fb.setupHorizontalMetrics({n:(500+10*i,0) for i,n in enumerate(names)})
    fb.setupHorizontalHeader(ascent=800,descent=-200)
    fb.setupNameTable({'familyName':'T','styleName':'R'}); fb.setupOS2(); fb.setupPost()
    addOpenTypeFeaturesFromString(fb.font, fea)
    fb.save(path)
build('Tests/TypesettingTests/Fixtures/gates/frac.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup L { sub a by b; } L;
lookup M { sub x x by d; } M;
feature liga { lookup L; lookup M; } liga;
feature numr { lookup L; } numr;
''')
build('Tests/TypesettingTests/Fixtures/gates/rvrn.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup L { sub a by b; sub b by c; } L;
lookup M { sub x x by d; } M;
feature rvrn { lookup L; } rvrn;
feature ccmp { lookup L; lookup M; } ccmp;
''')
build('Tests/TypesettingTests/Fixtures/gates/alt.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup L { sub a from [b c d]; } L;
lookup M { sub x x by d; } M;
feature calt { lookup L; lookup M; } calt;
feature salt { lookup L; } salt;
''')
# numr makes a glyph calt needs (one.numr, which no character maps to); numr acts only beside
# U+2044 (HarfBuzz needs numr and dnom for that), which must keep calt on.
build('Tests/TypesettingTests/Fixtures/gates/fraction.ttf', '''
languagesystem DFLT dflt; languagesystem latn dflt;
lookup N { sub one by one.numr; } N;
lookup D { sub two by two.dnom; } D;
lookup C { sub one.numr' fraction by d; } C;
feature numr { lookup N; } numr;
feature dnom { lookup D; } dnom;
feature calt { lookup C; } calt;
''', extra=('one.numr', 'two.dnom'))
