/* SPDX-License-Identifier: GPL-3.0-or-later */
/* srgb_table.h — babl 0.1.114's sRGB decode of the 256 8-bit levels.
 *
 * Entry v is the float babl gives for "R'G'B' float" v / 255 converted to
 * "RGB float" (linear light): the first step of GIMP 3's luminance.  babl
 * computes it with its own pow approximation, a few ulps from libm's (and
 * from gh_srgb_decode_f32 on half of the levels), so the values are
 * recorded here rather than computed; the weights are the Y row of babl's
 * sRGB matrix as floats.  tests/test_luminance_babl.c checks every 8-bit
 * colour against babl itself.  Data only: pixel.h instantiates it for the
 * host and for the GPU. */
#ifndef GH_SRGB_TABLE_H
#define GH_SRGB_TABLE_H

#define GH_BABL_Y_WR 0x1.c7a7c2p-3f /* 0.222487941 */
#define GH_BABL_Y_WG 0x1.6f0e06p-1f /* 0.716903865 */
#define GH_BABL_Y_WB 0x1.f080bap-5f /* 0.0606082566 */

#define GH_SRGB_DECODE_U8 { \
  0x0p+0f, 0x1.3e4568p-12f, 0x1.3e4568p-11f, 0x1.dd681cp-11f, \
  0x1.3e4568p-10f, 0x1.8dd6c2p-10f, 0x1.dd681cp-10f, 0x1.167cbap-9f, \
  0x1.3e4568p-9f, 0x1.660e16p-9f, 0x1.8dd6c2p-9f, 0x1.b6a316p-9f, \
  0x1.e1e322p-9f, 0x1.07c39p-8f, 0x1.1fcc32p-8f, 0x1.390ffcp-8f, \
  0x1.53936ep-8f, 0x1.6f5ae4p-8f, 0x1.8c6a9cp-8f, 0x1.aac6dp-8f, \
  0x1.ca738cp-8f, 0x1.eb74eap-8f, 0x1.06e77p-7f, 0x1.18c2aap-7f, \
  0x1.2b4e08p-7f, 0x1.3e8b8p-7f, 0x1.527cdcp-7f, 0x1.6723f4p-7f, \
  0x1.7c8298p-7f, 0x1.929a84p-7f, 0x1.a96d94p-7f, 0x1.c0fd64p-7f, \
  0x1.d94bbap-7f, 0x1.f25a4p-7f, 0x1.06155p-6f, 0x1.135f3ap-6f, \
  0x1.210bb8p-6f, 0x1.2f1b8ap-6f, 0x1.3d8f7ep-6f, 0x1.4c6864p-6f, \
  0x1.5ba6fap-6f, 0x1.6b4c04p-6f, 0x1.7b584ap-6f, 0x1.8bcc74p-6f, \
  0x1.9ca95ep-6f, 0x1.adefaep-6f, 0x1.bfa022p-6f, 0x1.d1bb7cp-6f, \
  0x1.e4426p-6f, 0x1.f73596p-6f, 0x1.054ad6p-5f, 0x1.0f31bcp-5f, \
  0x1.194fcep-5f, 0x1.23a562p-5f, 0x1.2e32ccp-5f, 0x1.38f86p-5f, \
  0x1.43f67cp-5f, 0x1.4f2d6cp-5f, 0x1.5a9d7cp-5f, 0x1.66471p-5f, \
  0x1.722a5ap-5f, 0x1.7e47c8p-5f, 0x1.8a9fa6p-5f, 0x1.97324p-5f, \
  0x1.a3ffep-5f, 0x1.b108dep-5f, 0x1.be4d74p-5f, 0x1.cbce04p-5f, \
  0x1.d98ad2p-5f, 0x1.e78426p-5f, 0x1.f5ba5ap-5f, 0x1.0216cep-4f, \
  0x1.096f3p-4f, 0x1.10e66p-4f, 0x1.187c98p-4f, 0x1.2031e8p-4f, \
  0x1.28068cp-4f, 0x1.2ffa96p-4f, 0x1.380e32p-4f, 0x1.404176p-4f, \
  0x1.48949ap-4f, 0x1.5107b2p-4f, 0x1.599aep-4f, 0x1.624e52p-4f, \
  0x1.6b222p-4f, 0x1.741674p-4f, 0x1.7d2b6ep-4f, 0x1.866124p-4f, \
  0x1.8fb7c6p-4f, 0x1.992f6cp-4f, 0x1.a2c84p-4f, 0x1.ac825ep-4f, \
  0x1.b65ddcp-4f, 0x1.c05af6p-4f, 0x1.ca79bp-4f, 0x1.d4ba36p-4f, \
  0x1.df1cap-4f, 0x1.e9a122p-4f, 0x1.f447d2p-4f, 0x1.ff10c6p-4f, \
  0x1.04fe16p-3f, 0x1.0a8504p-3f, 0x1.101d4ap-3f, 0x1.15c6f6p-3f, \
  0x1.1b820ep-3f, 0x1.214eacp-3f, 0x1.272cd8p-3f, 0x1.2d1ca2p-3f, \
  0x1.331e22p-3f, 0x1.393162p-3f, 0x1.3f5662p-3f, 0x1.458d42p-3f, \
  0x1.4bd616p-3f, 0x1.5230dap-3f, 0x1.589da6p-3f, 0x1.5f1c88p-3f, \
  0x1.65ad88p-3f, 0x1.6c50c8p-3f, 0x1.73063ap-3f, 0x1.79ce0cp-3f, \
  0x1.80a82ep-3f, 0x1.8794bep-3f, 0x1.8e93d2p-3f, 0x1.95a55cp-3f, \
  0x1.9cc986p-3f, 0x1.a4005p-3f, 0x1.ab49d4p-3f, 0x1.b2a606p-3f, \
  0x1.ba151ap-3f, 0x1.c197p-3f, 0x1.c92bccp-3f, 0x1.d0d38ap-3f, \
  0x1.d88e4ap-3f, 0x1.e05c1ap-3f, 0x1.e83d06p-3f, 0x1.f0311ap-3f, \
  0x1.f83876p-3f, 0x1.00298ap-2f, 0x1.044076p-2f, 0x1.086122p-2f, \
  0x1.0c8b74p-2f, 0x1.10bf92p-2f, 0x1.14fd6ap-2f, 0x1.19450ep-2f, \
  0x1.1d967ep-2f, 0x1.21f1c8p-2f, 0x1.2656ecp-2f, 0x1.2ac5fp-2f, \
  0x1.2f3eeap-2f, 0x1.33c1dp-2f, 0x1.384e9ep-2f, 0x1.3ce576p-2f, \
  0x1.418648p-2f, 0x1.463128p-2f, 0x1.4ae616p-2f, 0x1.4fa514p-2f, \
  0x1.546e32p-2f, 0x1.594178p-2f, 0x1.5e1ecep-2f, 0x1.63066cp-2f, \
  0x1.67f83p-2f, 0x1.6cf432p-2f, 0x1.71fa6cp-2f, 0x1.770aecp-2f, \
  0x1.7c25c6p-2f, 0x1.814aep-2f, 0x1.867a58p-2f, 0x1.8bb432p-2f, \
  0x1.90f86ep-2f, 0x1.964704p-2f, 0x1.9ba018p-2f, 0x1.a1039ep-2f, \
  0x1.a67196p-2f, 0x1.abea16p-2f, 0x1.b16d1cp-2f, 0x1.b6fabp-2f, \
  0x1.bc92d2p-2f, 0x1.c2357ep-2f, 0x1.c7e2d6p-2f, 0x1.cd9ad4p-2f, \
  0x1.d35d72p-2f, 0x1.d92ab8p-2f, 0x1.df02b6p-2f, 0x1.e4e578p-2f, \
  0x1.ead2ecp-2f, 0x1.f0cb24p-2f, 0x1.f6ce34p-2f, 0x1.fcdc04p-2f, \
  0x1.017a5cp-1f, 0x1.048c18p-1f, 0x1.07a34cp-1f, 0x1.0abfecp-1f, \
  0x1.0de21p-1f, 0x1.1109ap-1f, 0x1.1436aep-1f, 0x1.176932p-1f, \
  0x1.1aa13cp-1f, 0x1.1ddeccp-1f, 0x1.2121e2p-1f, 0x1.246a82p-1f, \
  0x1.27b8a8p-1f, 0x1.2b0c5cp-1f, 0x1.2e65a2p-1f, 0x1.31c478p-1f, \
  0x1.3528e2p-1f, 0x1.3892e4p-1f, 0x1.3c0282p-1f, 0x1.3f77c8p-1f, \
  0x1.42f2a2p-1f, 0x1.46731cp-1f, 0x1.49f938p-1f, 0x1.4d8512p-1f, \
  0x1.511682p-1f, 0x1.54adacp-1f, 0x1.584a8p-1f, 0x1.5becfap-1f, \
  0x1.5f9538p-1f, 0x1.634336p-1f, 0x1.66f6d6p-1f, 0x1.6ab03ep-1f, \
  0x1.6e6f62p-1f, 0x1.723454p-1f, 0x1.75fef8p-1f, 0x1.79cf6cp-1f, \
  0x1.7da5a2p-1f, 0x1.8181a4p-1f, 0x1.856382p-1f, 0x1.894b1ep-1f, \
  0x1.8d38ap-1f, 0x1.912be4p-1f, 0x1.95250ap-1f, 0x1.99240ap-1f, \
  0x1.9d28ep-1f, 0x1.a1339ap-1f, 0x1.a54432p-1f, 0x1.a95aaep-1f, \
  0x1.ad771ap-1f, 0x1.b19966p-1f, 0x1.b5c19ep-1f, 0x1.b9efc4p-1f, \
  0x1.be23dcp-1f, 0x1.c25ddcp-1f, 0x1.c69ddap-1f, 0x1.cae3dep-1f, \
  0x1.cf2fc6p-1f, 0x1.d381bp-1f, 0x1.d7d998p-1f, 0x1.dc3792p-1f, \
  0x1.e09b78p-1f, 0x1.e5055ep-1f, 0x1.e9755ep-1f, 0x1.edeb62p-1f, \
  0x1.f2677p-1f, 0x1.f6e992p-1f, 0x1.fb71cp-1f, 0x1p+0f \
}

#endif
