// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Galley",
  products: [
    .library(name: "Typesetting", targets: ["Typesetting"]),
    .library(name: "ShapingAccelerator", targets: ["ShapingAccelerator"]),
    .library(name: "CompositionalLayout", targets: ["CompositionalLayout"]),
    .library(name: "SelfSizing", targets: ["SelfSizing"]),
    .library(name: "Rasterizer", targets: ["Rasterizer"]),
    .library(name: "Geometry", targets: ["Geometry"]),
    .library(name: "GalleyRecords", targets: ["GalleyRecords"]),
    .executable(name: "galley", targets: ["galley"]),
    // The C ABI (include/galley.h): libGalleyC.so for other languages.
    .library(name: "GalleyC", type: .dynamic, targets: ["GalleyC"]),
  ],
  targets: [
    .systemLibrary(
      name: "CFreeType", pkgConfig: "freetype2",
      providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
    .systemLibrary(
      name: "CHarfBuzz", pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]),
    // System fallback: the order in which a browser on Linux takes the fonts of a directory.
    .systemLibrary(
      name: "CFontconfig", pkgConfig: "fontconfig",
      providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
    .target(
      name: "CICUShims",
      linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),
    .target(name: "GalleyJSON"),
    .target(
      name: "Typesetting",
      dependencies: ["Geometry", "CHarfBuzz", "CFreeType", "CFontconfig", "CICUShims"]),
    // Feature gates, direct shaping and the word cache in front of Typesetting's HarfBuzz
    // engine; only a program that links it and calls `ShapingAccelerator.install()` runs it.
    .target(
      name: "ShapingAccelerator", dependencies: ["Typesetting", "CHarfBuzz", "CICUShims"]),
    // Point, Size and Rect: the layout model's frames and the pictures' boxes are one type.
    .target(name: "Geometry"),
    .target(name: "CompositionalLayout", dependencies: ["Geometry"]),
    .target(
      name: "SelfSizing", dependencies: ["Geometry", "Typesetting", "CompositionalLayout"]),
    // The file formats (text cases, cells, layout specs, updates, calibration, results): JSON
    // read and written here only; the library modules above take and give typed values.
    .target(
      name: "GalleyRecords",
      dependencies: ["GalleyJSON", "Geometry", "Typesetting", "CompositionalLayout", "SelfSizing"]),
    .target(name: "Rasterizer", dependencies: ["Geometry", "Typesetting", "CFreeType", "CPNG"]),
    // Benchmark and fuzzing support that no library links: `galley bench`, the fuzz targets
    // and the tests that replay them.
    .target(name: "GalleyBench", dependencies: ["Typesetting", "CompositionalLayout"]),
    // Record lines in, result lines out: what the command line and the C ABI both serve.
    .target(
      name: "GalleyService",
      dependencies: ["GalleyJSON", "GalleyRecords", "Typesetting", "SelfSizing"]),
    .target(
      name: "GalleyCLI",
      dependencies: [
        "GalleyJSON", "GalleyRecords", "GalleyService", "GalleyBench", "Typesetting",
        "ShapingAccelerator", "CompositionalLayout", "SelfSizing", "Rasterizer",
      ]),
    .executableTarget(name: "galley", dependencies: ["GalleyCLI"]),
    .target(
      name: "GalleyC",
      dependencies: [
        "GalleyService", "GalleyJSON", "GalleyRecords", "Typesetting", "ShapingAccelerator",
        "SelfSizing",
      ]),
    // Reliability figures that print rather than assert (memory plateau, hostile-input timings).
    .executableTarget(
      name: "galley-stress", dependencies: ["Typesetting", "ShapingAccelerator", "GalleyBench"],
      path: "Sources/GalleyStress"),
    .testTarget(
      name: "TypesettingTests",
      dependencies: ["Typesetting", "GalleyJSON", "GalleyRecords", "GalleyBench"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "GalleyCLITests",
      dependencies: [
        "GalleyCLI", "GalleyJSON", "GalleyRecords", "GalleyService", "Typesetting",
        "ShapingAccelerator", "SelfSizing", "Rasterizer",
      ]),
    .testTarget(
      name: "RasterizerTests",
      dependencies: ["Rasterizer", "GalleyRecords", "Typesetting", "SelfSizing"]),
    .testTarget(
      name: "ShapingAcceleratorTests",
      dependencies: ["ShapingAccelerator", "Typesetting", "GalleyJSON", "GalleyRecords", "GalleyBench"],
      exclude: ["Fixtures"]),
    .testTarget(name: "GalleyJSONTests", dependencies: ["GalleyJSON"]),
    .testTarget(
      name: "CompositionalLayoutTests",
      dependencies: ["CompositionalLayout", "GalleyJSON", "GalleyRecords", "GalleyBench"]),
    .testTarget(
      name: "SelfSizingTests",
      dependencies: [
        "SelfSizing", "Typesetting", "CompositionalLayout", "GalleyJSON", "GalleyRecords",
      ],
      exclude: ["Fixtures"]),
  ]
)
